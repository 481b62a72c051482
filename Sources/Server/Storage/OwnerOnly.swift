#if canImport(Glibc)
import Glibc
#endif

/// Permissions for what only the server's own user may read: the data folder and the database
/// files, which hold password hashes, session-token hashes and every image.
enum OwnerOnly {
    /// Removes every group and other permission from the existing `path` (keeping the owner's);
    /// returns the mode it had when it had to change it, nil when it was owner-only already or
    /// does not exist. Throws when it is open to others and cannot be changed (not our file).
    static func tighten(_ path: String) throws -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let permissions = status.st_mode & 0o7777
        guard permissions & 0o077 != 0 else { return nil }
        guard chmod(path, permissions & 0o700) == 0 else {
            let reason = String(cString: strerror(errno))
            throw ConfigurationError(
                "\(path) can be read by other users (mode \(octal(permissions))) and cannot be made owner-only: "
                    + "\(reason). Run the server as its owner, or make it owner-only (chmod go-rwx \(path)).")
        }
        return permissions
    }

    /// A mode as `ls` and `chmod` write it: 0755.
    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode, radix: 8)
    }
}
