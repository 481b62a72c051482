import COpenSSL
import Crypto
import Glibc
import Posix

/// Reads and writes the PEM files behind certificates and keys. Writes are atomic (temporary file, fsync, rename)
/// and create the file with its final mode, so a key is never readable by others, not even for an instant.
enum PEMFile {
    /// True when something exists at `path`.
    static func exists(_ path: String) -> Bool {
        (try? FileSystem.status(path)) != nil
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

    /// Replaces `path` with `bytes` atomically (`StagedOutput`): the new file has exactly `mode`
    /// from its creation, whatever the umask (a server running with umask 077 still writes a
    /// readable public certificate), and a key is never readable by others, not even for an instant.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(TLSError) {
        do { try StagedOutput.write(bytes, to: path, mode: mode, replacing: true) } catch {
            throw TLSError(kind: .configuration, summary: error.description)
        }
    }

    /// Makes `path` a directory with exactly `mode`, or resets an existing directory to `mode`. The parent must exist.
    static func makeDirectory(_ path: String, mode: mode_t) throws(TLSError) {
        do {
            guard !(try FileSystem.makeFolder(path, mode: mode)) else { return }
            if try FileSystem.status(path)?.permissions != mode { try FileSystem.setPermissions(path, mode) }
        } catch {
            throw TLSError(kind: .configuration, summary: "cannot create directory \(path): \(error.reason)")
        }
    }
}
