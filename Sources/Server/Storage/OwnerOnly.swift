import Posix

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
        guard let found = try? FileSystem.status(path) else { return nil }
        let permissions = found.permissions
        guard permissions & 0o077 != 0 else { return nil }
        do { try FileSystem.setPermissions(path, permissions & 0o700) } catch {
            throw ConfigurationError(
                "\(path) can be read by other users (mode \(octal(permissions))) and cannot be made owner-only: "
                    + "\(error.reason). Run the server as its owner, or make it owner-only (chmod go-rwx \(path)).")
        }
        return permissions
    }

    /// A mode as `ls` and `chmod` write it: 0755.
    static func octal(_ mode: mode_t) -> String {
        "0" + String(mode, radix: 8)
    }
}
