#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// What a command makes, a file or a folder, written under a hidden name beside where it goes and
/// named only once complete, so a command that fails leaves the disk as it found it: nothing
/// half-written under the real name, nothing created, no mode changed. Where it goes is checked
/// first (its folder exists, the name is free or an empty folder), and what is wrong is said in
/// the user's words.
///
/// The one way the offline commands (backup, restore, export, import-roster, the admin commands
/// that make a data folder) and `snapshare admin export` write what they make. A staged output
/// released without `commit()` is discarded.
public final class StagedOutput: @unchecked Sendable {
    /// Where it goes once complete.
    public let path: String
    /// Where it is written meanwhile: a hidden name in the same folder (so the same file system,
    /// and naming it is one rename), or inside the empty folder it goes in.
    public let temporaryPath: String
    private let placement: Placement
    private let mode: mode_t
    private var settled = false

    private enum Placement {
        /// A file beside its name.
        case file
        /// A new folder beside its name.
        case folder
        /// Inside a folder that exists and is empty: its entries move up on commit.
        case intoEmptyFolder
    }

    private init(path: String, temporaryPath: String, placement: Placement, mode: mode_t) {
        self.path = path
        self.temporaryPath = temporaryPath
        self.placement = placement
        self.mode = mode
    }

    deinit { if !settled { discard() } }

    /// A new file at `path`, which must not exist, in a folder that does: made empty under a hidden
    /// name beside it with exactly `mode`, for the caller to fill (SQLite takes an empty file as a
    /// new database).
    public static func file(_ path: String, mode: mode_t = 0o600) throws(OutputError) -> StagedOutput {
        try checkFolder(of: path)
        guard !exists(path) else { throw OutputError(path, .exists) }
        let temporary = hiddenName(beside: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw OutputError(path, .system(call: "create", errno: snapshare_errno())) }
        // The umask can only clear bits; the file has exactly `mode` whatever it is.
        let changed = fchmod(descriptor, mode)
        let reason = snapshare_errno()
        close(descriptor)
        let staged = StagedOutput(path: path, temporaryPath: temporary, placement: .file, mode: mode)
        guard changed == 0 else { throw OutputError(path, .system(call: "chmod", errno: reason)) }
        return staged
    }

    /// A folder at `path`, which must not exist or be an empty folder, in a folder that exists:
    /// made with exactly `mode` beside it (or inside the empty one) for the caller to fill.
    public static func folder(_ path: String, mode: mode_t = 0o700) throws(OutputError) -> StagedOutput {
        let path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        var status = stat()
        let placement: Placement
        let temporary: String
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw OutputError(path, .exists) }
            let entries = try entries(of: path)
            guard entries.isEmpty else { throw OutputError(path, .notEmpty(entries: Array(entries.prefix(3)), count: entries.count)) }
            placement = .intoEmptyFolder
            temporary = path + "/.staged-\(randomSuffix())"
        } else {
            try checkFolder(of: path)
            placement = .folder
            temporary = hiddenName(beside: path)
        }
        guard mkdir(temporary, mode) == 0 else { throw OutputError(path, .system(call: "mkdir", errno: snapshare_errno())) }
        let staged = StagedOutput(path: path, temporaryPath: temporary, placement: placement, mode: mode)
        guard chmod(temporary, mode) == 0 else { throw OutputError(path, .system(call: "chmod", errno: snapshare_errno())) }
        return staged
    }

    /// Gives what was written its name; throws (and discards it) when the name was taken meanwhile
    /// or the rename fails.
    public func commit() throws(OutputError) {
        precondition(!settled, "a staged output is committed or discarded once")
        switch placement {
        case .file:
            // What was written reaches the disk before it has its name (a crash never leaves an
            // empty or partial file under it).
            let descriptor = open(temporaryPath, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                fsync(descriptor)
                close(descriptor)
            }
            try rename(temporaryPath, to: path)
        case .folder:
            try rename(temporaryPath, to: path)
        case .intoEmptyFolder:
            let moved: [String]
            do { moved = try Self.entries(of: temporaryPath) } catch {
                discard()
                throw error
            }
            for name in moved { try rename(temporaryPath + "/" + name, to: path + "/" + name) }
            rmdir(temporaryPath)
            chmod(path, mode)
        }
        settled = true
        syncFolder(of: path)
    }

    /// Removes what was written: the disk is as it was before. Also done when released uncommitted.
    public func discard() {
        guard !settled else { return }
        settled = true
        Self.remove(temporaryPath)
        // SQLite's companions of a staged database file (its -journal, -wal and -shm).
        if placement == .file {
            for suffix in ["-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) }
        }
    }

    // MARK: Checks

    /// The folder `path` would go in exists and is a folder.
    private static func checkFolder(of path: String) throws(OutputError) {
        let folder = folder(of: path)
        var status = stat()
        guard stat(folder, &status) == 0 else {
            let reason = snapshare_errno()
            throw OutputError(path, reason == ENOENT ? .missingFolder(folder) : .system(call: "stat", errno: reason))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw OutputError(path, .notAFolder(folder)) }
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The names in the folder `path` (not `.` and `..`), sorted.
    static func entries(of path: String) throws(OutputError) -> [String] {
        guard let directory = opendir(path) else { throw OutputError(path, .system(call: "opendir", errno: snapshare_errno())) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    // MARK: Pieces

    private func rename(_ from: String, to: String) throws(OutputError) {
        guard snapshare_rename_noreplace(from, to) == 0 else {
            let reason = snapshare_errno()
            discard()
            throw OutputError(path, reason == EEXIST || reason == ENOTEMPTY ? .exists : .system(call: "rename", errno: reason))
        }
    }

    /// The folder `path` is in: `.` for a bare name, `/` for a name at the root.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    private static func hiddenName(beside path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let prefix = path.hasSuffix(name) ? String(path.dropLast(name.count)) : ""
        return "\(prefix).\(name).partial-\(randomSuffix())"
    }

    private static func randomSuffix() -> String {
        String(UInt64.random(in: .min ... .max), radix: 36)
    }

    /// Best effort: the rename itself survives a crash once its folder is synced.
    private func syncFolder(of path: String) {
        let descriptor = open(Self.folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Removes a file, or a folder with everything in it.
    private static func remove(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR {
            for name in (try? entries(of: path)) ?? [] { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
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
        case .system(let call, let code):
            "cannot write \(path): \(String(cString: strerror(code)))\(call == "rename" ? " (naming it)" : "")"
        }
    }
}
