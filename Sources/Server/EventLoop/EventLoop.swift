import Foundation
import Posix
import Synchronization

/// Something registered with the event loop that reacts to readiness.
protocol EventHandler: AnyObject {
    /// Hang-ups and errors arrive as `readable`: the next read(2) reports them.
    func handleEvent(readable: Bool, writable: Bool)
}

/// One thread, one epoll set: all socket I/O and all connection state live here.
///
/// Other threads talk to the loop only through `execute`, which queues a closure and wakes the
/// loop through an eventfd. Nothing blocks on this thread: storage work goes to the storage
/// threads and comes back through `execute`. Connections keep their epoll interest through it
/// (`InterestRegistry`).
final class EventLoop: InterestRegistry, @unchecked Sendable {
    private let epoll: Epoll
    private let wakeUp: EventFD
    private var handlers: [Int32: (generation: UInt32, handler: any EventHandler)] = [:]
    private var nextGeneration: UInt32 = 1
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// Set once the loop has returned: `execute` then drops its task, so a late completion
    /// cannot keep whatever it captured (the server core, a connection) alive forever.
    private let closed = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    /// Whether `start()` has run (set before the thread starts, read by whoever stops the loop).
    private(set) var started = false
    /// Signalled once by the loop thread as it returns.
    private let finished = DispatchSemaphore(value: 0)
    private var tickHandlers: [(interval: Int64, next: Int64, body: () -> Void)] = []

    init() throws(SystemError) {
        epoll = try Epoll()
        wakeUp = try EventFD()
        try epoll.add(wakeUp.fd, generation: 0, read: true, write: false)
    }

    /// Queues `task` to run on the loop thread; callable from any thread.
    func execute(_ task: @escaping @Sendable () -> Void) {
        let wasEmpty = queue.withLock { tasks -> Bool in
            if closed.load(ordering: .relaxed) { return false }
            tasks.append(task)
            return tasks.count == 1
        }
        if wasEmpty { wakeUp.signal() }
    }

    // MARK: Loop-thread API

    func register(_ fd: Int32, handler: any EventHandler, read: Bool, write: Bool) throws(SystemError) {
        let generation = nextGeneration
        nextGeneration &+= 1
        if nextGeneration == 0 { nextGeneration = 1 }
        try epoll.add(fd, generation: generation, read: read, write: write)
        handlers[fd] = (generation, handler)
    }

    /// Watches `fd` for reading and/or writing from now on (`InterestRegistry`).
    func setInterest(_ fd: Int32, read: Bool, write: Bool) {
        guard let entry = handlers[fd] else { return }
        try? epoll.modify(fd, generation: entry.generation, read: read, write: write)
    }

    func deregister(_ fd: Int32) {
        guard handlers.removeValue(forKey: fd) != nil else { return }
        epoll.remove(fd)
    }

    /// Runs `body` on the loop every `intervalMilliseconds`.
    func every(milliseconds interval: Int64, _ body: @escaping () -> Void) {
        tickHandlers.append((interval, MonotonicClock.milliseconds() + interval, body))
    }

    /// Starts the loop on its own thread.
    func start(name: String = "event-loop") {
        started = true
        NamedThread.start(name, stackSize: 1 << 20) { [self] in
            run()
            finished.signal()
        }
    }

    /// Asks the loop to finish its current iteration and return.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wakeUp.signal()
    }

    /// The loop itself; returns after `stop()`.
    func run() {
        while !stopping.load(ordering: .acquiring) {
            let now = MonotonicClock.milliseconds()
            let nextTick = tickHandlers.map(\.next).min()
            let timeout = nextTick.map { Int32(clamping: max(0, $0 - now)) } ?? -1
            let events: [Epoll.Event]
            do {
                events = try epoll.wait(timeoutMilliseconds: timeout)
            } catch {
                StandardErrorLog.shared.write("event loop: \(error)")
                continue
            }
            for event in events {
                if event.fd == wakeUp.fd && event.generation == 0 {
                    wakeUp.drain()
                    continue
                }
                // A handler closed during this batch may have had its number reused: compare
                // generations so the stale event is dropped.
                guard let entry = handlers[event.fd], entry.generation == event.generation else { continue }
                entry.handler.handleEvent(readable: event.readable, writable: event.writable)
            }
            runQueuedTasks()
            runTicks()
        }
        runQueuedTasks()
        let left = queue.withLock { tasks -> [@Sendable () -> Void] in
            closed.store(true, ordering: .relaxed)
            defer { tasks.removeAll() }
            return tasks
        }
        // Released here, outside the lock: a task's captures may call `execute` as they go.
        _ = left
    }

    private func runQueuedTasks() {
        // Tasks may enqueue more tasks; bound each pass so I/O is not starved.
        for _ in 0..<4 {
            let tasks = queue.withLock { tasks -> [@Sendable () -> Void] in
                defer { tasks.removeAll(keepingCapacity: true) }
                return tasks
            }
            if tasks.isEmpty { return }
            for task in tasks { task() }
        }
        if queue.withLock({ !$0.isEmpty }) { wakeUp.signal() }
    }

    private func runTicks() {
        let now = MonotonicClock.milliseconds()
        for i in tickHandlers.indices where tickHandlers[i].next <= now {
            tickHandlers[i].next = now + tickHandlers[i].interval
            tickHandlers[i].body()
        }
    }

    /// Waits for the loop thread to finish after `stop()`; false if it is still running after
    /// `timeoutSeconds` (then its state must not be touched from another thread).
    func join(timeoutSeconds: Double = 10) -> Bool {
        finished.wait(timeout: .now() + timeoutSeconds) == .success
    }
}
