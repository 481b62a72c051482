#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The server's data folder: owner-only (0700), since it holds password hashes and snaps.
enum DataDirectory {
    /// Creates the folder at `path` owner-only, or makes an existing one owner-only and logs a
    /// warning saying so. Throws when `path` is not a folder or cannot be made owner-only.
    static func prepare(_ path: String, logger: Logger) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            return
        }
        guard isDirectory.boolValue else { throw ConfigurationError("\(path) exists and is not a directory") }
        if let before = try OwnerOnly.tighten(path) {
            logger.warning("the data folder \(path) was open to other users (mode \(OwnerOnly.octal(before))); "
                           + "it is now owner-only (mode \(OwnerOnly.octal(before & 0o700)))")
        }
    }

    /// Runs `body`, which may make the folder and the SQLite database at `path` in it; when it
    /// throws, removes what it made (the database's files, and the folder if it made that), so a
    /// command that fails leaves the disk as it found it.
    static func removingWhatFails<T>(_ path: String, database: String, _ body: () throws -> T) throws -> T {
        let hadFolder = FileManager.default.fileExists(atPath: path)
        let hadDatabase = FileManager.default.fileExists(atPath: database)
        do {
            return try body()
        } catch {
            if !hadDatabase {
                for file in DatabaseFiles.paths(database) { unlink(file) }
                if !hadFolder { rmdir(path) }
            }
            throw error
        }
    }
}
