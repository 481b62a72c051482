import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// What stat(2) says of a path: its kind, permission bits, size and owners.
public struct FileStatus: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case file, folder, link, other
    }

    public var kind: Kind
    /// The permission bits, set-id and sticky bits included (`mode & 0o7777`).
    public var permissions: mode_t
    public var size: Int64
    public var owner: uid_t
    public var group: gid_t

    init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .file
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .link
        default: kind = .other
        }
        permissions = status.st_mode & 0o7777
        size = Int64(status.st_size)
        owner = status.st_uid
        group = status.st_gid
    }
}

/// The calls on paths other than writing a file (which `StagedOutput` does, the one way): what is
/// there, folders made with exactly their mode, modes changed, names removed. Each throws the
/// call's `SystemError`, whose `reason` is the system's words for the message that names the path.
public enum FileSystem {
    /// What is at `path` (with `followingLinks` false, a link itself); nil when nothing is.
    public static func status(_ path: String, followingLinks: Bool = true) throws(SystemError) -> FileStatus? {
        var status = stat()
        do {
            _ = try Syscall.checked(followingLinks ? "stat" : "lstat") { followingLinks ? stat(path, &status) : lstat(path, &status) }
        } catch {
            if error.errno == ENOENT || error.errno == ENOTDIR { return nil }
            throw error
        }
        return FileStatus(status)
    }

    /// Whether anything is at `path`, a dangling link included.
    public static func exists(_ path: String) -> Bool {
        (try? status(path, followingLinks: false)) != nil
    }

    /// Throws when this process cannot open `path` for reading (missing, not permitted), in the
    /// system's words; opening is the test, since access(2) asks for the real user, not the
    /// effective one.
    public static func checkReadable(_ path: String) throws(SystemError) {
        let descriptor = try Syscall.checked("open") { open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        Syscall.close(descriptor)
    }

    /// Sets the permission bits of the existing `path` (chmod(2)). Not for a file just written:
    /// `StagedOutput` creates a file with its mode before a byte is in it.
    public static func setPermissions(_ path: String, _ mode: mode_t) throws(SystemError) {
        _ = try Syscall.checked("chmod") { chmod(path, mode) }
    }

    /// Makes the folder `path` with exactly `mode`, whatever the umask (it is empty when its mode
    /// is set); false when a folder is there already, which is left as it is. Throws EEXIST when
    /// something else has the name, and ENOENT when its parent is missing.
    @discardableResult
    public static func makeFolder(_ path: String, mode: mode_t) throws(SystemError) -> Bool {
        do {
            _ = try Syscall.checked("mkdir") { mkdir(path, mode) }
        } catch {
            guard error.errno == EEXIST, (try? status(path))?.kind == .folder else { throw error }
            return false
        }
        // mkdir's mode passes through the umask, which may have cleared bits `mode` wants.
        try setPermissions(path, mode)
        return true
    }

    /// Makes `path` and each missing folder above it with exactly `mode`; folders that exist are
    /// left as they are. The error's `path` is the folder that could not be made: below a file
    /// that has the name of a folder above, the first one that cannot go in it (ENOTDIR).
    public static func makeFolders(_ path: String, mode: mode_t) throws(SystemError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        let components = path.split(separator: "/")
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            do { try makeFolder(prefix, mode: mode) } catch {
                if error.errno == EEXIST && index < components.count - 1 { continue }
                throw SystemError(error.call, errno: error.errno, detail: error.detail, path: prefix)
            }
        }
    }

    /// Removes the file (or link) `path`; false when nothing had the name.
    @discardableResult
    public static func remove(_ path: String) throws(SystemError) -> Bool {
        do {
            _ = try Syscall.checked("unlink") { unlink(path) }
        } catch {
            if error.errno == ENOENT { return false }
            throw error
        }
        return true
    }

    /// Removes the empty folder `path`.
    public static func removeFolder(_ path: String) throws(SystemError) {
        _ = try Syscall.checked("rmdir") { rmdir(path) }
    }

    /// Removes a file, or a folder with everything in it, as far as it can (best effort: what
    /// cannot be removed stays).
    public static func removeTree(_ path: String) {
        guard let found = try? status(path, followingLinks: false) else { return }
        if found.kind == .folder {
            for name in (try? entries(of: path)) ?? [] { removeTree(path + "/" + name) }
            try? removeFolder(path)
        } else {
            _ = try? remove(path)
        }
    }

    /// The names in the folder `path` (not `.` and `..`), sorted.
    public static func entries(of path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError("opendir", errno: snapshare_errno()) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// `path` with every link, `.` and `..` resolved (realpath(3)); nil when it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Makes the descriptor of the folder `path` durable on disk, so a rename inside it survives a
    /// crash; best effort (some file systems refuse it).
    public static func syncFolder(_ path: String) {
        guard let descriptor = try? Syscall.checked("open", { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) else { return }
        _ = try? Syscall.checked("fsync") { fsync(descriptor) }
        Syscall.close(descriptor)
    }

    /// Sets the process's file creation mask (umask(2)); returns the one it had.
    @discardableResult
    public static func setCreationMask(_ mask: mode_t) -> mode_t {
        umask(mask)
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a name at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
