import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// The few file operations the client's state needs, through Posix: whole-file reads that
/// tolerate absence, atomic private writes, and private directories.
enum StateFile {
    /// State files are a few lines; anything bigger is not ours and is not read into memory.
    static let maximumSize = 1 << 20

    /// The file's text, or nil when it does not exist.
    static func read(_ path: String) throws(ClientStateError) -> String? {
        let bytes: [UInt8]
        do { bytes = try WholeFile.read(path, maximumBytes: maximumSize) } catch {
            if error.call == "open" && error.errno == ENOENT { return nil }
            if error.errno == EFBIG { throw .corrupt(file: path, reason: "larger than \(maximumSize) bytes") }
            throw .system(operation: error.call, path: path, errno: error.errno)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .corrupt(file: path, reason: "not UTF-8 text")
        }
        return text
    }

    /// Replaces `path` with `text` so that readers see the old file or the new one, never a part,
    /// and nobody else can read it even for a moment: `StagedOutput`'s write (mode 0600 from
    /// creation, fsync, rename over the old file).
    static func writeAtomically(_ text: String, to path: String) throws(ClientStateError) {
        do { try StagedOutput.write(Array(text.utf8), to: path, mode: 0o600, replacing: true) } catch {
            switch error.reason {
            case .system(let call, let code): throw .system(operation: call == "rename" ? "rename to" : call, path: path, errno: code)
            case .missingFolder: throw .system(operation: "write", path: path, errno: ENOENT)
            case .notAFolder: throw .system(operation: "write", path: path, errno: ENOTDIR)
            case .exists, .notEmpty, .unreadable: throw .system(operation: "write", path: path, errno: EEXIST)
            }
        }
    }

    /// Deletes `path`; a file that is already gone is not an error.
    static func remove(_ path: String) throws(ClientStateError) {
        do { try FileSystem.remove(path) } catch {
            throw .system(operation: "remove", path: path, errno: error.errno)
        }
    }

    /// Creates `path` and any missing parents with mode 0700; existing directories are left as they are.
    static func makeDirectories(_ path: String) throws(ClientStateError) {
        do { try FileSystem.makeFolders(path, mode: 0o700) } catch {
            throw .system(operation: error.call == "mkdir" ? "create directory" : error.call, path: error.path ?? path, errno: error.errno)
        }
    }

    /// The directory and the last component of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
