import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C (SIGINT) while a command waits, heard on a `SignalPipe` (the client's one signal
/// path), so the command can say what was left going before it exits, instead of dying
/// silently; `stop()` gives SIGINT back.
final class InterruptFlag {
    private let pipe: SignalPipe
    /// Ctrl-C came.
    private var raised = false

    init() throws(ClientError) {
        do { pipe = try SignalPipe(forwarding: [SIGINT]) } catch {
            throw ClientError(.local, "cannot catch Ctrl-C: \(error)")
        }
    }

    /// Sleeps `milliseconds`, less if Ctrl-C comes first; true once it has come.
    func wait(milliseconds: Int32) throws(ClientError) -> Bool {
        guard !raised else { return true }
        do { raised = try pipe.wait(timeoutMilliseconds: milliseconds).signals.contains(SIGINT) } catch {
            throw ClientError(.local, "cannot wait for Ctrl-C: \(error)")
        }
        return raised
    }

    /// Puts SIGINT back as it was.
    func stop() { pipe.close() }
}
