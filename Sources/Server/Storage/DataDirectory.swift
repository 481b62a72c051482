import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// The server's data folder: owner-only (0700), since it holds password hashes and snaps.
enum DataDirectory {
    /// Creates the folder at `path` owner-only, or makes an existing one owner-only and logs a
    /// warning saying so. Throws when `path` is not a folder or cannot be made owner-only.
    static func prepare(_ path: String, logger: Logger) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            do { try FileSystem.makeFolders(path, mode: 0o700) } catch {
                throw ConfigurationError("cannot make the data folder \(error.path ?? path): \(error.reason)")
            }
            return
        }
        guard isDirectory.boolValue else { throw ConfigurationError("\(path) exists and is not a directory") }
        if let before = try OwnerOnly.tighten(path) {
            logger.warning(
                "the data folder \(path) was open to other users (mode \(OwnerOnly.octal(before))); "
                    + "it is now owner-only (mode \(OwnerOnly.octal(before & 0o700)))")
        }
    }

    /// A new data folder at `path` (which must not exist, or be an empty folder), staged owner-only:
    /// the caller makes the database in its `temporaryPath` and commits once everything worked, so
    /// a command that fails creates nothing. A folder holding other files is refused, unchanged.
    static func stageNew(_ path: String) throws -> StagedOutput {
        let staged: Result<StagedOutput, OutputError> = Result { () throws(OutputError) in try StagedOutput.folder(path, mode: 0o700) }
        if case .failure(let error) = staged, case .notEmpty = error.reason {
            throw ConfigurationError(
                "\(path) holds \(error.heldEntries) and no Snapshare database; "
                    + "use a new or empty folder for the data (--data), or move what is in it elsewhere first")
        }
        return try staged.get()
    }
}
