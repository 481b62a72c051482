import Foundation
import Shared

/// Maintenance that opens the database directly, for when the server is stopped (SQLite's
/// locking makes it safe while it runs, too).
public enum OfflineAdmin {
    /// Says on standard error what was changed besides the request (a data folder made owner-only).
    private static let logger = Logger(level: .warning)

    /// What `addAdmin` did.
    public enum AdminChange: Sendable, Equatable {
        case created, promoted
    }

    /// `addAdmin` for a user that does not exist yet, without a password to create it with.
    public struct NewAdminNeedsPassword: Error, CustomStringConvertible {
        public var username: String
        public var description: String { "\(username) does not exist yet; an admin needs a password" }
    }

    /// Creates `username` as an admin (a password is then required), or promotes an existing
    /// user and, when a password is given, sets it. Bad input throws `InputError`.
    @discardableResult
    public static func addAdmin(dataDirectory: String, username: String, password: String?) throws -> AdminChange {
        if let problem = InputRules.validateUsername(username) { throw InputError(problem) }
        if let password, let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        // The deliberately slow hash runs before, not inside, the storage job.
        let hash = try password.map { try PasswordHasher().hash(password: $0) }
        try DataDirectory.prepare(dataDirectory, logger: logger)
        let storage = try StorageExecutor.sqlite(path: ServerConfiguration.databasePath(in: dataDirectory), readers: 1)
        defer { storage.shutdown() }
        let now = RequestHandler.wallClock()
        return try storage.writeSync { store in
            if let existing = try store.user(named: username) {
                try store.setAdmin(userID: existing.id, isAdmin: true)
                if let hash { try store.setPasswordHash(userID: existing.id, passwordHash: hash) }
                return .promoted
            }
            guard let hash else { throw NewAdminNeedsPassword(username: username) }
            _ = try store.createUser(name: username, passwordHash: hash, isAdmin: true, at: now)
            return .created
        }
    }

    static func addAdmin(_ parsed: ParsedCommand) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        let data = parsed.string("--data") ?? ServerConfiguration().dataDirectory
        let password = parsed.flag("--password-stdin") ? try readPassword(parsed) : nil
        let change: AdminChange
        do {
            change = try addAdmin(dataDirectory: data, username: name, password: password)
        } catch let error as InputError {
            throw parsed.usageError(error.message)
        } catch is NewAdminNeedsPassword {
            throw parsed.usageError("\(name) does not exist yet; give its password with --password-stdin")
        }
        switch change {
        case .created: print("Created admin \(name).")
        case .promoted: print("\(name) is now an admin\(password != nil ? " (password changed)" : "").")
        }
        return 0
    }

    private static func readPassword(_ parsed: ParsedCommand) throws -> String {
        guard let line = readLine(strippingNewline: true) else { throw parsed.usageError("standard input is empty; expected the password") }
        return line
    }

    static func resetFeeds(_ parsed: ParsedCommand) throws -> Int32 {
        let all = parsed.flag("--all")
        var feed: String?
        if let raw = parsed.string("--feed") {
            switch InputRules.normalizedFeedName(raw) {
            case .success(let name): feed = name
            case .failure(let error): throw parsed.usageError(error.message)
            }
        }
        guard (feed != nil) != all else { throw parsed.usageError("give exactly one of --feed NAME or --all") }
        let data = parsed.string("--data") ?? ServerConfiguration().dataDirectory
        let path = ServerConfiguration.databasePath(in: data)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ConfigurationError("no Snapshare database in \(data)")
        }
        try DataDirectory.prepare(data, logger: logger)
        let storage = try StorageExecutor.sqlite(path: path, readers: 1)
        defer { storage.shutdown() }
        let name = feed
        let count = try storage.writeSync { store in try store.resetFeeds(named: name) }
        print("Reset \(feed ?? "every feed"): \(count) snap\(count == 1 ? "" : "s") deleted.")
        return 0
    }
}
