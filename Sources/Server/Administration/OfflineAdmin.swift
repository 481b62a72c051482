import Foundation
import Shared

/// Maintenance that opens the database directly, for when the server is stopped (SQLite's
/// locking makes it safe while it runs, too).
public enum OfflineAdmin {
    /// Creates `username` as an admin, or promotes it and sets its password.
    public static func addAdmin(dataDirectory: String, username: String, password: String) throws {
        if let problem = InputRules.validateUsername(username) { throw InputError(problem) }
        if let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        try DataDirectory.prepare(dataDirectory)
        let storage = try StorageExecutor.sqlite(path: dataDirectory + "/snapshare.db", readers: 1)
        defer { storage.shutdown() }
        let hash = try PasswordHasher().hash(password: password)
        let now = RequestHandler.wallClock()
        try storage.writeSync { store in
            if let existing = try store.user(named: username) {
                try store.setAdmin(userID: existing.id, isAdmin: true)
                try store.setPasswordHash(userID: existing.id, passwordHash: hash)
            } else {
                _ = try store.createUser(name: username, passwordHash: hash, isAdmin: true, at: now)
            }
        }
    }

    static func addAdmin(_ parsed: ParsedCommand) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        if let problem = InputRules.validateUsername(name) { throw parsed.usageError(problem) }
        let data = parsed.string("--data") ?? ServerConfiguration().dataDirectory
        try DataDirectory.prepare(data)
        let storage = try StorageExecutor.sqlite(path: data + "/snapshare.db", readers: 1)
        defer { storage.shutdown() }
        let existing = try storage.readSync { store in try store.user(named: name) }
        if let existing {
            let hash: String? = parsed.flag("--password-stdin") ? try PasswordHasher().hash(password: try readPassword(parsed)) : nil
            try storage.writeSync { store in
                try store.setAdmin(userID: existing.id, isAdmin: true)
                if let hash { try store.setPasswordHash(userID: existing.id, passwordHash: hash) }
            }
            print("\(existing.name) is now an admin\(hash == nil ? "" : " (password changed)").")
            return 0
        }
        guard parsed.flag("--password-stdin") else {
            throw parsed.usageError("\(name) does not exist yet; give its password with --password-stdin")
        }
        let password = try readPassword(parsed)
        let hash = try PasswordHasher().hash(password: password)
        let now = RequestHandler.wallClock()
        let user = try storage.writeSync { store in try store.createUser(name: name, passwordHash: hash, isAdmin: true, at: now) }
        print("Created admin \(user.name).")
        return 0
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
        guard FileManager.default.fileExists(atPath: data + "/snapshare.db") else {
            throw ConfigurationError("no Snapshare database in \(data)")
        }
        let storage = try StorageExecutor.sqlite(path: data + "/snapshare.db", readers: 1)
        defer { storage.shutdown() }
        let count = try storage.writeSync { store -> Int in
            if let feed {
                guard let record = try store.feed(named: feed) else { throw StoreError(.notFound, "no feed named \(feed)") }
                return try store.resetFeed(id: record.id)
            }
            return try store.resetAllFeeds()
        }
        print("Reset \(feed ?? "every feed"): \(count) snap\(count == 1 ? "" : "s") deleted.")
        return 0
    }
}
