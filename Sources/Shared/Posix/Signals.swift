import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// What a program does with signals besides hearing them on a `SignalPipe`: ignore one for the
/// whole process, send one, stop itself, and end itself as a signal would have.
public enum Signals {
    /// Ignores `signal` from now on. For SIGPIPE: a write to a pipe or socket whose reader left
    /// then fails with EPIPE where it was made, instead of ending the program.
    public static func ignore(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }

    /// Sends `signal` to the process `pid` (kill(2)); false when there is no such process or it
    /// is not ours to signal.
    @discardableResult
    public static func send(_ signal: Int32, to pid: pid_t) -> Bool {
        kill(pid, signal) == 0
    }

    /// Sends `signal` to the whole process group `pid` leads (a program started in a group of its
    /// own, with whatever it started), or to `pid` alone when it leads none; false when it could
    /// not be sent.
    @discardableResult
    public static func sendToGroup(_ signal: Int32, ledBy pid: pid_t) -> Bool {
        send(signal, to: getpgid(pid) == pid ? -pid : pid)
    }

    /// Stops this process as Ctrl-Z would (SIGSTOP, which no handler can catch); returns once it
    /// is continued (`fg`, SIGCONT).
    public static func stopThisProcess() {
        kill(getpid(), SIGSTOP)
    }

    /// Ends this process by `signal` with its default action, after a handler caught it and the
    /// program cleaned up, so the parent sees the status of a process killed by that signal (a
    /// shell prints 128 + its number). Should the signal not end the process, it exits with that
    /// status anyway.
    public static func reraise(_ signal: Int32) -> Never {
        _ = snapshare_default_signal(signal)
        // raise(3) delivers to this thread before it returns, once the thread lets it through.
        unblock([signal])
        Glibc.raise(signal)
        _exit(128 + signal)
    }

    /// Holds `signals` back from the calling thread and every thread it starts from now on (they
    /// inherit its mask), so that they reach only a thread that lets them through (a
    /// `SignalPipe`'s).
    public static func block(_ signals: [Int32]) {
        mask(signals, SIG_BLOCK)
    }

    /// Lets `signals` through to the calling thread. A process starts with its parent's mask,
    /// and some parents (a test runner's threads) block SIGINT, SIGTERM and SIGHUP: a handler
    /// would then never run.
    static func unblock(_ signals: [Int32]) {
        mask(signals, SIG_UNBLOCK)
    }

    private static func mask(_ signals: [Int32], _ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(how, &set, nil)
    }
}
