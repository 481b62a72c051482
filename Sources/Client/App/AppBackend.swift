import Foundation
import Synchronization
import Posix

/// The app's one line to the server: a worker thread that runs session calls one at a time, so
/// the screen never waits on the network, and hands each result back to the app's thread.
///
/// When the connection drops the worker reconnects on its own with a growing pause (0.25 s
/// doubling to 8 s), resumes the saved login (no new password), and runs again the calls that
/// are safe to repeat; a call that is not (a post) fails with "connection lost" so the user
/// decides, their picture still picked. `link` tells the screen which of the two it is.
final class AppBackend: @unchecked Sendable {
    enum Link: Equatable {
        case connected
        /// Trying again; `reason` is what went wrong last.
        case reconnecting(reason: String)
    }

    /// How a session is made: connect and resume the saved login. Throws `.auth` when there is
    /// no valid saved login (the app then shows its login form).
    typealias Connect = @Sendable () throws(ClientError) -> SnapshareSession

    private struct Job {
        let retry: Bool
        /// The completion to deliver, or nil when the job needs a session and has none (or lost
        /// it under the job). A job that needs no session always returns one.
        let run: (SnapshareSession?) -> (() -> Void)?
        /// Connection lost and not retried: the completion to run instead.
        let lost: (ClientError) -> () -> Void
    }

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var completions: [() -> Void] = []
    private var stopped = false
    private var session: SnapshareSession?
    private var connect: Connect
    private let wake: @Sendable () -> Void
    /// Work on this machine alone, run by a second worker (`performLocal`) with its own lock.
    private let localCondition = NSCondition()
    private var localJobs: [() -> () -> Void] = []
    private var localStopped = false
    /// Set by the worker, read by the app's thread.
    private let linkState = Mutex<Link>(.connected)
    /// Runs jobs on the calling thread (tests: results in order, no thread).
    private let inline: Bool

    var link: Link { linkState.withLock { $0 } }

    /// A backend making sessions with `connect`; `wake` is called (from the worker) whenever a
    /// completion is waiting in `takeCompletions()`.
    init(connect: @escaping Connect, inline: Bool = false, wake: @escaping @Sendable () -> Void) {
        self.connect = connect
        self.wake = wake
        self.inline = inline
        guard !inline else { return }
        NamedThread.start("snapshare-net") { [unowned self] in self.work() }
        NamedThread.start("snapshare-local") { [unowned self] in self.workLocally() }
    }

    /// A backend already holding `session` (tests, and the app after its login form).
    func adopt(_ session: SnapshareSession, connect: @escaping Connect) {
        condition.lock()
        self.session = session
        self.connect = connect
        condition.unlock()
        linkState.withLock { $0 = .connected }
    }

    /// Runs `work` with the session on the worker; `then` runs on the app's thread with its result.
    /// `retry`: the call may run again after a reconnect (reads, and writes the server makes idempotent).
    func perform<T>(retry: Bool, _ work: @escaping (SnapshareSession) throws(ClientError) -> T,
                    then: @escaping (Result<T, ClientError>) -> Void) {
        let job = Job(retry: retry, run: { session in
            guard let session else { return nil }
            let result = Result { () throws(ClientError) in try work(session) }
            if case .failure(let error) = result, error.isConnectionLoss { return nil }
            return { then(result) }
        }, lost: { error in { then(.failure(error)) } })
        if inline {
            condition.lock()
            if session == nil { session = try? connect() }
            let current = session
            condition.unlock()
            if let done = job.run(current) { done() } else { job.lost(ClientError(.connection, "connection lost"))() }
            return
        }
        condition.lock()
        jobs.append(job)
        // The worker and `drain` both wait on `condition`: wake both.
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `work` on the worker without the current session (signing in makes a new one);
    /// `then` runs on the app's thread.
    func performAlone<T>(_ work: @escaping () throws(ClientError) -> T, then: @escaping (Result<T, ClientError>) -> Void) {
        let job = Job(retry: false, run: { _ in
            let result = Result { () throws(ClientError) in try work() }
            return { then(result) }
        }, lost: { error in { then(.failure(error)) } })
        if inline {
            job.run(nil)?()
            return
        }
        condition.lock()
        jobs.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `work`, which needs nothing from the server (reading a file, decoding a picture), on
    /// a worker of its own, so it never waits behind a request or a reconnect and the screen
    /// never waits on it; `then` runs on the app's thread.
    func performLocal<T>(_ work: @escaping () throws(ClientError) -> T, then: @escaping (Result<T, ClientError>) -> Void) {
        let job = { () -> () -> Void in
            let result = Result { () throws(ClientError) in try work() }
            return { then(result) }
        }
        if inline {
            job()()
            return
        }
        localCondition.lock()
        localJobs.append(job)
        localCondition.signal()
        localCondition.unlock()
    }

    /// The completions waiting to run on the app's thread, oldest first.
    func takeCompletions() -> [() -> Void] {
        condition.lock()
        defer { completions = []; condition.unlock() }
        return completions
    }

    /// Waits until every job asked for so far has run, or `timeout` passed (on the way out, so a
    /// last save reaches the server).
    func drain(timeout: TimeInterval) {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !jobs.isEmpty && !stopped && session != nil {
            guard condition.wait(until: deadline) else { break }
        }
        condition.unlock()
    }

    /// Ends the worker after the job it is running (the session closes with the backend).
    func stop() {
        condition.lock()
        stopped = true
        jobs = []
        condition.broadcast()
        condition.unlock()
        localCondition.lock()
        localStopped = true
        localJobs = []
        localCondition.signal()
        localCondition.unlock()
    }

    // MARK: The worker

    private func work() {
        var pause = 0.25
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            let job = jobs[0]
            let current = session
            let connect = self.connect
            condition.unlock()

            if let done = job.run(current) {
                deliver(done, removingHead: true)
                pause = 0.25
                continue
            }
            // No session, or it was lost under this job.
            condition.lock()
            session = nil
            condition.unlock()
            if !job.retry && current != nil {
                deliver(job.lost(ClientError(.connection, "connection lost; nothing was sent twice — try again")), removingHead: true)
            }
            do {
                let fresh = try connect()
                condition.lock()
                session = fresh
                condition.unlock()
                setLink(.connected)
                pause = 0.25
            } catch where error.kind == .connection || error.kind == .tls {
                setLink(.reconnecting(reason: error.message))
                condition.lock()
                if !stopped { _ = condition.wait(until: Date().addingTimeInterval(pause)) }
                condition.unlock()
                pause = min(8, pause * 2)
            } catch {
                // The server answered but will not resume the login: the head job fails with it.
                setLink(.connected)
                condition.lock()
                let head = jobs.isEmpty ? nil : jobs[0]
                condition.unlock()
                if let head { deliver(head.lost(error), removingHead: true) }
            }
        }
    }

    private func workLocally() {
        while true {
            localCondition.lock()
            while localJobs.isEmpty && !localStopped { localCondition.wait() }
            if localStopped { localCondition.unlock(); return }
            let job = localJobs.removeFirst()
            localCondition.unlock()
            deliver(job(), removingHead: false)
        }
    }

    private func setLink(_ link: Link) {
        let changed = linkState.withLock { state in
            defer { state = link }
            return state != link
        }
        if changed { wake() }
    }

    private func deliver(_ completion: @escaping () -> Void, removingHead: Bool) {
        condition.lock()
        if removingHead && !jobs.isEmpty { jobs.removeFirst() }
        completions.append(completion)
        condition.broadcast()
        condition.unlock()
        wake()
    }
}
