import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// The files of one SQLite database (the main file, its `-wal` and its `-shm`), readable and
/// writable by their owner only.
enum DatabaseFiles {
    /// The mode a new main file is created with.
    static let mode: mode_t = 0o600

    /// The main file and the two SQLite keeps beside it in WAL mode.
    static func paths(_ path: String) -> [String] { [path, path + "-wal", path + "-shm"] }

    /// Creates the main file owner-only when it does not exist yet and makes whichever of the
    /// three files exist owner-only. Throws when one cannot be made owner-only.
    static func makeOwnerOnly(_ path: String) throws {
        // SQLite would create the main file 0644 less the umask, and it gives a new -wal and -shm
        // the main file's mode whatever the umask: a main file created 0600 here (empty, which
        // SQLite takes as a new database) settles all three.
        // "Exists" is the usual case; any other failure is sqlite3_open_v2's to report.
        _ = try? StagedOutput.write([], to: path, mode: mode)
        // Files from before (an older server, a restored backup) keep their mode until changed.
        for file in paths(path) { _ = try OwnerOnly.tighten(file) }
    }
}
