import Foundation
import Shared

/// Maintenance that opens the database directly, for when the server is stopped (SQLite's
/// locking makes it safe while it runs, too).
public enum OfflineAdmin {
    /// What `addAdmin` did.
    public enum AdminChange: Sendable, Equatable {
        case created
        case promoted(passwordChanged: Bool)
    }

    /// Creates `username` as an admin (a password is then required), or promotes an existing
    /// user and, when a password is given, sets it.
    @discardableResult
    public static func addAdmin(dataDirectory: String, username: String, password: String?) throws -> AdminChange {
        if let problem = InputRules.validateUsername(username) { throw InputError(problem) }
        if let password, let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        try DataDirectory.prepare(dataDirectory)
        let storage = try StorageExecutor.sqlite(path: databasePath(dataDirectory), readers: 1)
        defer { storage.shutdown() }
        let existing = try storage.readSync { store in try store.user(named: username) }
        // The deliberately slow hash runs outside the storage job.
        let hash = try password.map { try PasswordHasher().hash(password: $0) }
        if let existing {
            try storage.writeSync { store in
                try store.setAdmin(userID: existing.id, isAdmin: true)
                if let hash { try store.setPasswordHash(userID: existing.id, passwordHash: hash) }
            }
            return .promoted(passwordChanged: hash != nil)
        }
        guard let hash else { throw InputError("\(username) does not exist yet; an admin needs a password") }
        let now = RequestHandler.wallClock()
        _ = try storage.writeSync { store in try store.createUser(name: username, passwordHash: hash, isAdmin: true, at: now) }
        return .created
    }

    static func addAdmin(_ parsed: ParsedCommand) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        if let problem = InputRules.validateUsername(name) { throw parsed.usageError(problem) }
        let data = parsed.string("--data") ?? ServerConfiguration().dataDirectory
        let password = parsed.flag("--password-stdin") ? try readPassword(parsed) : nil
        let change: AdminChange
        do {
            change = try addAdmin(dataDirectory: data, username: name, password: password)
        } catch is InputError where password == nil {
            throw parsed.usageError("\(name) does not exist yet; give its password with --password-stdin")
        }
        switch change {
        case .created: print("Created admin \(name).")
        case .promoted(let changed): print("\(name) is now an admin\(changed ? " (password changed)" : "").")
        }
        return 0
    }

    /// The database file in a data folder (as `ServerConfiguration.databasePath` has it).
    private static func databasePath(_ dataDirectory: String) -> String {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        return configuration.databasePath
    }

    private static func readPassword(_ parsed: ParsedCommand) throws -> String {
        guard let line = readLine(strippingNewline: true) else { throw parsed.usageError("standard input is empty; expected the password") }
        if let problem = InputRules.validatePassword(line) { throw parsed.usageError(problem) }
        return line
    }

    static func resetFeeds(_ parsed: ParsedCommand) throws -> Int32 {
        let feed = parsed.string("--feed")
        let all = parsed.flag("--all")
        guard (feed != nil) != all else { throw parsed.usageError("give exactly one of --feed NAME or --all") }
        let data = parsed.string("--data") ?? ServerConfiguration().dataDirectory
        guard FileManager.default.fileExists(atPath: databasePath(data)) else {
            throw ConfigurationError("no Snapshare database in \(data)")
        }
        let storage = try StorageExecutor.sqlite(path: databasePath(data), readers: 1)
        defer { storage.shutdown() }
        let count = try storage.writeSync { store -> Int in
            if let feed {
                return try store.resetFeed(id: store.requireFeed(named: feed).id)
            }
            return try store.resetAllFeeds()
        }
        print("Reset \(feed ?? "every feed"): \(count) snap\(count == 1 ? "" : "s") deleted.")
        return 0
    }
}
