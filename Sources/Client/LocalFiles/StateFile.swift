#if canImport(Glibc)
import Glibc
#endif
import Posix

/// The few file operations the client's state needs: whole-file reads that tolerate absence,
/// atomic private writes, and private directories.
enum StateFile {
    /// State files are a few lines; anything bigger is not ours and is not read into memory.
    static let maximumSize = 1 << 20

    /// The file's text, or nil when it does not exist.
    static func read(_ path: String) throws(ClientStateError) -> String? {
        let fd: Int32
        do {
            fd = try Syscall.checked("open") { open(path, O_RDONLY | O_CLOEXEC) }
        } catch {
            if error.errno == ENOENT { return nil }
            throw .system(operation: "open", path: path, errno: error.errno)
        }
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let result: IOResult<Int>
            do {
                result = try Syscall.read(fd, into: &chunk)
            } catch {
                throw .system(operation: "read", path: path, errno: error.errno)
            }
            // A regular file never reports EAGAIN; if one did, it counts as a failed read.
            guard case .processed(let count) = result else { throw .system(operation: "read", path: path, errno: EAGAIN) }
            if count == 0 { break }
            bytes += chunk[..<count]
            if bytes.count > maximumSize { throw .corrupt(file: path, reason: "larger than \(maximumSize) bytes") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .corrupt(file: path, reason: "not UTF-8 text")
        }
        return text
    }

    /// Replaces `path` with `text` so that readers see the old file or the new one, never a part.
    ///
    /// The temporary file is created with O_EXCL and mode 0600 before a byte is written, so a
    /// token is never readable by others even for a moment, and a leftover from a crash or a
    /// concurrent writer is never reused. fsync before rename keeps a crash from leaving an
    /// empty file under the real name; fsync of the directory makes the rename itself durable.
    static func writeAtomically(_ text: String, to path: String) throws(ClientStateError) {
        let (directory, name) = split(path)
        let temporary = "\(directory)/.\(name).\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let fd: Int32
        do {
            fd = try Syscall.checked("open") { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        } catch {
            throw .system(operation: "create", path: temporary, errno: error.errno)
        }
        do {
            defer { Syscall.close(fd) }
            // umask can only clear bits of 0600, but a file this private should not depend on it.
            _ = try Syscall.checked("fchmod") { fchmod(fd, 0o600) }
            try Syscall.writeAll(fd, Array(text.utf8))
            _ = try Syscall.checked("fsync") { fsync(fd) }
        } catch {
            unlink(temporary)
            throw .system(operation: error.call, path: temporary, errno: error.errno)
        }
        do {
            _ = try Syscall.checked("rename") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw .system(operation: "rename to", path: path, errno: error.errno)
        }
        // Best effort: the data is already in place, and some file systems refuse this.
        if let directoryFD = try? Syscall.checked("open", { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) {
            _ = try? Syscall.checked("fsync") { fsync(directoryFD) }
            Syscall.close(directoryFD)
        }
    }

    /// Deletes `path`; a file that is already gone is not an error.
    static func remove(_ path: String) throws(ClientStateError) {
        do {
            _ = try Syscall.checked("unlink") { unlink(path) }
        } catch where error.errno != ENOENT {
            throw .system(operation: "remove", path: path, errno: error.errno)
        } catch {}
    }

    /// Creates `path` and any missing parents with mode 0700; existing directories are left as they are.
    static func makeDirectories(_ path: String) throws(ClientStateError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            do {
                _ = try Syscall.checked("mkdir") { mkdir(prefix, 0o700) }
            } catch where error.errno == EEXIST {
                continue
            } catch {
                throw .system(operation: "create directory", path: prefix, errno: error.errno)
            }
            // mkdir's mode passes through umask; a directory we create is private regardless.
            do {
                _ = try Syscall.checked("chmod") { chmod(prefix, 0o700) }
            } catch {
                throw .system(operation: "chmod", path: prefix, errno: error.errno)
            }
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
