#if canImport(Glibc)
    import Glibc
#endif

/// What the system says of this process and of the user it runs as: its id, the CPU time it
/// used, the user's ids, name and home folder (from the password database), its effective group.
public enum ThisProcess {
    /// The process id (getpid(2)).
    public static var id: pid_t { getpid() }

    /// The real user id (getuid(2)): 0 for root.
    public static var userID: uid_t { getuid() }

    /// The effective group id (getegid(2)): the group whose members may read a file of group
    /// mode that this process reads.
    public static var effectiveGroupID: gid_t { getegid() }

    /// Clock ticks a second (sysconf(_SC_CLK_TCK)): the unit of the CPU times in /proc/PID/stat.
    public static var clockTicksPerSecond: Int { sysconf(Int32(_SC_CLK_TCK)) }

    /// The CPU time this process has used, user and system, in microseconds (getrusage(2)).
    public static var cpuMicroseconds: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func micros(_ t: timeval) -> Double { Double(t.tv_sec) * 1_000_000 + Double(t.tv_usec) }
        return micros(usage.ru_utime) + micros(usage.ru_stime)
    }

    /// The effective user's name, else `uid N`.
    public static var userName: String {
        let user = geteuid()
        return account(user)?.name ?? "uid \(user)"
    }

    /// The real user's home folder from the password database, or nil (none, or empty).
    public static var homeFolder: String? {
        guard let home = account(getuid())?.home, !home.isEmpty else { return nil }
        return home
    }

    /// The password database's entry for `user` (getpwuid_r(3), which is safe from any thread).
    private static func account(_ user: uid_t) -> (name: String, home: String)? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(user, &entry, &buffer, buffer.count, &result) == 0, result != nil,
            let name = entry.pw_name
        else { return nil }
        return (String(cString: name), entry.pw_dir.map { String(cString: $0) } ?? "")
    }
}
