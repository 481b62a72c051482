import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Turns Ctrl-C (SIGINT) into a flag a waiting loop checks, so the command can say what was
/// left going before it exits, instead of dying silently; `stop()` gives SIGINT back.
final class InterruptFlag {
    /// Shared with the signal handler's queue.
    private let flag = Flag()
    private let source: DispatchSourceSignal

    init() {
        // Dispatch only sees a signal whose default action is switched off.
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "snapshare.interrupt"))
        source.setEventHandler { [flag] in flag.value.store(true, ordering: .releasing) }
        source.resume()
    }

    var raised: Bool { flag.value.load(ordering: .acquiring) }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
