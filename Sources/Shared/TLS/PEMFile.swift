import COpenSSL
import Glibc
import Crypto
import Posix

/// Reads and writes the PEM files behind certificates and keys. Writes are atomic (temporary file, fsync, rename)
/// and create the file with its final mode, so a key is never readable by others, not even for an instant.
enum PEMFile {
    /// True when something exists at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Opens `path` and hands a file BIO to `parse`. Returns nil when the file holds no such PEM object;
    /// throws `.configuration` when the file cannot be opened.
    static func read(_ path: String, parse: (OpaquePointer) -> OpaquePointer?) throws(TLSError) -> OpaquePointer? {
        OpenSSLErrorQueue.clear()
        guard let bio = BIO_new_file(path, "r") else {
            throw TLSError.drainingErrorQueue(.configuration, "cannot open \(path)")
        }
        defer { BIO_free(bio) }
        let object = parse(bio)
        OpenSSLErrorQueue.clear()
        return object
    }

    /// Runs `write` against a memory BIO and returns the bytes it produced (PEM_write_bio_* returns 1 on success).
    static func encode(_ what: String, _ write: (OpaquePointer) -> Int32) throws(TLSError) -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw TLSError.drainingErrorQueue(.internal, "BIO_new failed")
        }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else {
            throw TLSError.drainingErrorQueue(.internal, "cannot encode \(what) as PEM")
        }
        var bytes = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        guard count == bytes.count else {
            throw TLSError(kind: .internal, summary: "short read from memory BIO while encoding \(what)")
        }
        return bytes
    }

    /// Replaces `path` with `bytes` atomically; the new file has exactly `mode`, whatever the
    /// umask (a server running with umask 077 still writes a readable public certificate).
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(TLSError) {
        let temporary = "\(path).tmp-\(SHA256.hex(SecureRandom.bytes(6)))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw systemError("cannot create \(temporary)")
        }
        guard fchmod(descriptor, mode) == 0 else {
            Glibc.close(descriptor)
            unlink(temporary)
            throw systemError("cannot set mode of \(temporary)")
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            defer { Glibc.close(descriptor) }
            try writeAll(bytes, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else {
                throw systemError("cannot flush \(temporary)")
            }
        }
        guard rename(temporary, path) == 0 else {
            throw systemError("cannot rename \(temporary) to \(path)")
        }
        renamed = true
    }

    /// Makes `path` a directory with exactly `mode`, or resets an existing directory to `mode`. The parent must exist.
    static func makeDirectory(_ path: String, mode: mode_t) throws(TLSError) {
        if mkdir(path, mode) == 0 { return }
        let reason = errno
        var info = stat()
        guard reason == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            errno = reason
            throw systemError("cannot create directory \(path)")
        }
        guard info.st_mode & 0o777 == mode || chmod(path, mode) == 0 else {
            throw systemError("cannot set mode of \(path)")
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(TLSError) {
        do {
            try Syscall.writeAll(descriptor, bytes)
        } catch {
            throw TLSError(kind: .configuration, summary: "cannot write \(path): \(error.reason)")
        }
    }

    private static func systemError(_ summary: String) -> TLSError {
        TLSError(kind: .configuration, summary: "\(summary): \(String(cString: strerror(errno)))")
    }
}
