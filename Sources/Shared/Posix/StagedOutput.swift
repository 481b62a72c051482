import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// What we write, a file or a folder, under a hidden name beside where it goes and named only
/// once complete, so a write that fails leaves the disk as it found it: nothing half-written
/// under the real name, nothing created, no mode changed. Where it goes is checked first (its
/// folder exists, the name is free or an empty folder, unless a file is `replacing` one), and
/// what is wrong is said in the user's words.
///
/// The one way a file is written (every owner-only file among them): the offline commands'
/// outputs (backup, restore, export, import-roster, a new data folder), `snapshare admin export`,
/// the client's state files, the certificates and keys, a vacation's new file. A file is created
/// with its mode (0600 unless asked) before a byte is in it, never changed after; its bytes reach
/// the disk (fsync) before it has its name. EINTR and short writes are `Syscall`'s. A staged output
/// released without `commit()` is discarded.
public final class StagedOutput: @unchecked Sendable {
    /// Where it goes once complete.
    public let path: String
    /// Where it is written meanwhile: a hidden name in the same folder (so the same file system,
    /// and naming it is one rename), or inside the empty folder it goes in.
    public let temporaryPath: String
    private let placement: Placement
    private let mode: mode_t
    /// A file's descriptor, open from its creation to its commit or discard.
    private var descriptor: Int32?
    private var settled = false

    private enum Placement {
        /// A file beside its name; `replacing`: whatever has the name is replaced by the rename.
        case file(replacing: Bool)
        /// A new folder beside its name.
        case folder
        /// Inside a folder that exists and is empty: its entries move up on commit.
        case intoEmptyFolder
    }

    private init(path: String, temporaryPath: String, placement: Placement, mode: mode_t, descriptor: Int32? = nil) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.placement = placement
        self.mode = mode
        self.descriptor = descriptor
    }

    deinit { if !settled { discard() } }

    // MARK: Files

    /// A new file at `path`, in a folder that exists: made empty under a hidden name beside it
    /// with exactly `mode`, for the caller to fill with `write` (or SQLite to fill through
    /// `temporaryPath`: it takes an empty file as a new database). Unless `replacing`, nothing may
    /// have the name: nothing is ever written over; `replacing` swaps a file for the new one in
    /// one rename, so a reader sees the old file or the new one, never a part.
    public static func file(_ path: String, mode: mode_t = 0o600, replacing: Bool = false) throws(OutputError) -> StagedOutput {
        try checkFolder(of: path)
        guard replacing || !FileSystem.exists(path) else { throw OutputError(path, .exists) }
        let temporary = hiddenName(beside: path)
        let descriptor: Int32
        do {
            descriptor = try Syscall.checked("create") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) }
        } catch {
            throw OutputError(path, .system(call: "create", errno: error.errno))
        }
        let staged = StagedOutput(
            path: path, temporaryPath: temporary, placement: .file(replacing: replacing), mode: mode,
            descriptor: descriptor)
        // The umask can only clear bits; the file has exactly `mode` whatever it is, and has it
        // while it is still empty.
        do { _ = try Syscall.checked("chmod") { fchmod(descriptor, mode) } } catch {
            staged.discard()
            throw OutputError(path, .system(call: "chmod", errno: error.errno))
        }
        return staged
    }

    /// Writes `bytes` as the whole file `path` (see `file`): created with `mode`, filled, on the
    /// disk, then named, or nothing changed.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600, replacing: Bool = false) throws(OutputError) {
        let staged = try file(path, mode: mode, replacing: replacing)
        try staged.write(bytes)
        try staged.commit()
    }

    /// Adds `bytes` to the end of the staged file; a failure discards it.
    public func write(_ bytes: [UInt8]) throws(OutputError) {
        guard let descriptor, !settled else { preconditionFailure("write goes to a staged file before its commit") }
        do { try Syscall.writeAll(descriptor, bytes) } catch {
            discard()
            throw OutputError(path, .system(call: "write", errno: error.errno))
        }
    }

    /// Adds the contents of the file `source` to the end of the staged file, a piece at a time
    /// (a file of any size); a failure discards it.
    public func write(contentsOf source: String) throws(OutputError) {
        let input: Int32
        do { input = try Syscall.checked("open") { open(source, O_RDONLY | O_CLOEXEC) } } catch {
            discard()
            throw OutputError(path, .unreadable(source: source, errno: error.errno))
        }
        defer { Syscall.close(input) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let result: IOResult<Int>
            do { result = try Syscall.read(input, into: &chunk) } catch {
                discard()
                throw OutputError(path, .unreadable(source: source, errno: error.errno))
            }
            // A regular file never reports EAGAIN; if one did, it counts as a failed read.
            guard case .processed(let count) = result else {
                discard()
                throw OutputError(path, .unreadable(source: source, errno: EAGAIN))
            }
            if count == 0 { return }
            try write(Array(chunk[..<count]))
        }
    }

    // MARK: Folders

    /// A folder at `path`, which must not exist or be an empty folder, in a folder that exists:
    /// made with exactly `mode` beside it (or inside the empty one) for the caller to fill.
    public static func folder(_ path: String, mode: mode_t = 0o700) throws(OutputError) -> StagedOutput {
        let path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let placement: Placement
        let temporary: String
        if let found = try? FileSystem.status(path, followingLinks: false) {
            guard found.kind == .folder else { throw OutputError(path, .exists) }
            let entries = try entries(of: path)
            guard entries.isEmpty else { throw OutputError(path, .notEmpty(entries: Array(entries.prefix(3)), count: entries.count)) }
            placement = .intoEmptyFolder
            temporary = path + "/.staged-\(randomSuffix())"
        } else {
            try checkFolder(of: path)
            placement = .folder
            temporary = hiddenName(beside: path)
        }
        do { _ = try Syscall.checked("mkdir") { mkdir(temporary, mode) } } catch {
            throw OutputError(path, .system(call: "mkdir", errno: error.errno))
        }
        let staged = StagedOutput(path: path, temporaryPath: temporary, placement: placement, mode: mode)
        do { try FileSystem.setPermissions(temporary, mode) } catch {
            staged.discard()
            throw OutputError(path, .system(call: "chmod", errno: error.errno))
        }
        return staged
    }

    // MARK: Naming it

    /// Gives what was written its name; throws (and discards it) when the name was taken meanwhile
    /// or the rename fails.
    public func commit() throws(OutputError) {
        precondition(!settled, "a staged output is committed or discarded once")
        switch placement {
        case .file(let replacing):
            // What was written reaches the disk before it has its name (a crash never leaves an
            // empty or partial file under it). fsync is the file's, whichever descriptor wrote it.
            if let descriptor {
                do { _ = try Syscall.checked("fsync") { fsync(descriptor) } } catch {
                    discard()
                    throw OutputError(path, .system(call: "fsync", errno: error.errno))
                }
                Syscall.close(descriptor)
                self.descriptor = nil
            }
            try rename(temporaryPath, to: path, replacing: replacing)
        case .folder:
            try rename(temporaryPath, to: path, replacing: false)
        case .intoEmptyFolder:
            let moved: [String]
            do { moved = try Self.entries(of: temporaryPath) } catch {
                discard()
                throw error
            }
            for name in moved { try rename(temporaryPath + "/" + name, to: path + "/" + name, replacing: false) }
            try? FileSystem.removeFolder(temporaryPath)
            try? FileSystem.setPermissions(path, mode)
        }
        settled = true
        FileSystem.syncFolder(FileSystem.folder(of: path))
    }

    /// Removes what was written: the disk is as it was before. Also done when released uncommitted.
    public func discard() {
        guard !settled else { return }
        settled = true
        if let descriptor {
            Syscall.close(descriptor)
            self.descriptor = nil
        }
        FileSystem.removeTree(temporaryPath)
        // SQLite's companions of a staged database file (its -journal, -wal and -shm).
        if case .file = placement {
            for suffix in ["-journal", "-wal", "-shm"] { _ = try? FileSystem.remove(temporaryPath + suffix) }
        }
    }

    // MARK: Checks

    /// The folder `path` would go in exists and is a folder.
    private static func checkFolder(of path: String) throws(OutputError) {
        let folder = FileSystem.folder(of: path)
        let found: FileStatus?
        do { found = try FileSystem.status(folder) } catch {
            throw OutputError(path, .system(call: "stat", errno: error.errno))
        }
        guard let found else { throw OutputError(path, .missingFolder(folder)) }
        guard found.kind == .folder else { throw OutputError(path, .notAFolder(folder)) }
    }

    /// The names in the folder `path` (not `.` and `..`), sorted.
    static func entries(of path: String) throws(OutputError) -> [String] {
        do { return try FileSystem.entries(of: path) } catch {
            throw OutputError(path, .system(call: error.call, errno: error.errno))
        }
    }

    // MARK: Pieces

    private func rename(_ from: String, to: String, replacing: Bool) throws(OutputError) {
        do {
            if replacing {
                _ = try Syscall.checked("rename") { Glibc.rename(from, to) }
            } else {
                _ = try Syscall.checked("rename") { snapshare_rename_noreplace(from, to) }
            }
        } catch {
            discard()
            let reason = error.errno
            let taken = !replacing && (reason == EEXIST || reason == ENOTEMPTY)
            throw OutputError(path, taken ? .exists : .system(call: "rename", errno: reason))
        }
    }

    private static func hiddenName(beside path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let prefix = path.hasSuffix(name) ? String(path.dropLast(name.count)) : ""
        return "\(prefix).\(name).partial-\(randomSuffix())"
    }

    private static func randomSuffix() -> String {
        String(UInt64.random(in: .min ... .max), radix: 36)
    }
}

/// Why a command's output cannot be made where it was asked for, worded for the user.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The folder it would go in does not exist.
        case missingFolder(String)
        /// What would be its folder is something else.
        case notAFolder(String)
        /// Something has its name already (a file, or a folder where a file goes).
        case exists
        /// A folder that must be new or empty holds `count` entries; `entries` are the first few.
        case notEmpty(entries: [String], count: Int)
        /// A system call failed with errno.
        case system(call: String, errno: Int32)
        /// The file to copy in cannot be read.
        case unreadable(source: String, errno: Int32)
    }

    /// What was to be made.
    public var path: String
    public var reason: Reason

    public init(_ path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The entries of a folder that is not empty, as a phrase: `notes.txt, a.txt and 3 more`.
    public var heldEntries: String {
        guard case .notEmpty(let entries, let count) = reason else { return "" }
        let shown = entries.joined(separator: ", ")
        return count > entries.count ? "\(shown) and \(count - entries.count) more" : shown
    }

    /// Why, without the path: the system's words for a failed call (`No space left on device`),
    /// else the whole description.
    public var cause: String {
        switch reason {
        case .system(let call, let code): String(cString: strerror(code)) + (call == "rename" ? " (naming it)" : "")
        default: description
        }
    }

    public var description: String {
        switch reason {
        case .missingFolder(let folder):
            "cannot write \(path): the folder \(folder) does not exist (make it first: mkdir -p \(folder))"
        case .notAFolder(let folder):
            "cannot write \(path): \(folder) is not a folder"
        case .exists:
            "\(path) exists already; name a new one (nothing is ever written over)"
        case .notEmpty:
            "\(path) is not empty (it holds \(heldEntries)); name a new or empty folder"
        case .system:
            "cannot write \(path): \(cause)"
        case .unreadable(let source, let code):
            "cannot write \(path): cannot read \(source): \(String(cString: strerror(code)))"
        }
    }
}
