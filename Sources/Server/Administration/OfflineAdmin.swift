#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Wire
import CommandLineParsing

/// Maintenance that opens the database directly, for when the server is stopped (SQLite's
/// locking makes it safe while it runs, too), or, with `--database`, the PostgreSQL database
/// that running instances share.
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
    public static func addAdmin(dataDirectory: String, username: String, password: String?, database: String? = nil) throws -> AdminChange {
        if let problem = InputRules.validateUsername(username) { throw InputError(problem) }
        if let password, let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        // The deliberately slow hash runs before, not inside, the storage job.
        let hash = try password.map { try PasswordHasher().hash(password: $0) }
        let now = WallClock.system.now()
        return try write(dataDirectory: dataDirectory, database: database, audit: ("admin add", "user \(username)")) { store in
            if let existing = try store.user(named: username) {
                try store.setAdmin(userID: existing.id, isAdmin: true)
                if let hash {
                    // A new password ends the old sessions, as everywhere else.
                    try store.setPasswordHash(userID: existing.id, passwordHash: hash)
                    _ = try store.deleteSessions(userID: existing.id, keeping: nil)
                }
                return .promoted
            }
            guard let hash else { throw NewAdminNeedsPassword(username: username) }
            _ = try store.createUser(name: username, passwordHash: hash, isAdmin: true, at: now)
            return .created
        }
    }

    /// Takes away `username`'s admin right (the account stays); returns false when they had none
    /// (nothing changes). A running server applies it to the user's live connections within a second.
    @discardableResult
    public static func removeAdmin(dataDirectory: String, username: String, database: String? = nil) throws -> Bool {
        try write(dataDirectory: dataDirectory, database: database, audit: ("admin remove", "user \(username)")) { store in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            guard user.isAdmin else { return false }
            try store.setAdmin(userID: user.id, isAdmin: false)
            return true
        }
    }

    /// Sets `username`'s password without changing its admin right, and ends all its sessions
    /// (a running server closes their connections within a second). Returns the sessions ended.
    @discardableResult
    public static func resetPassword(dataDirectory: String, username: String, password: String, database: String? = nil) throws -> Int {
        if let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        let hash = try PasswordHasher().hash(password: password)
        return try write(dataDirectory: dataDirectory, database: database, audit: ("admin reset-password", "user \(username)")) { store in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            try store.setPasswordHash(userID: user.id, passwordHash: hash)
            return try store.deleteSessions(userID: user.id, keeping: nil)
        }
    }

    /// Who an offline command runs as, in the audit log: `offline:` and the operating-system user.
    static var offlineActor: String {
        let name = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "uid \(geteuid())"
        return "offline:" + name
    }

    /// Runs one write job on the data folder's database, which must exist unless `create`, and
    /// records it in the audit log: with the job when it succeeds, on its own when it fails. A
    /// database it creates (and its folder) is kept only when the job succeeds.
    static func write<T: Sendable>(dataDirectory: String, database: String? = nil, create: Bool = true,
                                           audit: (action: String, target: String),
                                           _ job: @escaping @Sendable (any SnapshareStore) throws -> T) throws -> T {
        let actor = offlineActor
        @Sendable func entry(_ result: String) -> AuditRecord {
            AuditRecord(at: WallClock.system.now(), actor: actor, action: audit.action, target: audit.target, result: result)
        }
        let audited: @Sendable (any SnapshareStore) throws -> T = { store in
            let result = try job(store)
            try store.recordAudit(entry("ok"))
            return result
        }
        func run(_ storage: StorageExecutor) throws -> T {
            do {
                return try storage.writeSync(audited)
            } catch {
                let failed = entry((error as? StoreError).map { RequestHandler.errorMessage(for: $0).code.name } ?? "failed")
                _ = try? storage.writeSync { store in try store.recordAudit(failed) }
                throw error
            }
        }
        if let database {
            // The database every instance shares: the change reaches them all at once.
            let storage = try StorageExecutor.postgres(conninfo: database, readers: 1)
            defer { storage.shutdown() }
            return try run(storage)
        }
        func runOnSQLite(_ path: String) throws -> T {
            let storage = try StorageExecutor.sqlite(path: path, readers: 1)
            defer { storage.shutdown() }
            return try run(storage)
        }
        let path = ServerConfiguration.databasePath(in: dataDirectory)
        if FileManager.default.fileExists(atPath: path) {
            let result = try runOnSQLite(path)
            // The same owner-only folder as the server makes, once the command has done its work.
            try DataDirectory.prepare(dataDirectory, logger: logger)
            return result
        }
        guard create else { throw ConfigurationError("no Snapshare database in \(dataDirectory)") }
        // A new class: its folder and database appear only when the command succeeds.
        let staged = try DataDirectory.stageNew(dataDirectory)
        let result = try runOnSQLite(ServerConfiguration.databasePath(in: staged.temporaryPath))
        try staged.commit()
        return result
    }

    static func addAdmin(_ parsed: ParsedCommand) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        let data = parsed.string("--data") ?? ServerConfiguration().dataDirectory
        let password = parsed.flag("--password-stdin") ? try readPassword(parsed) : nil
        let change: AdminChange
        do {
            change = try addAdmin(dataDirectory: data, username: name, password: password, database: parsed.string("--database"))
        } catch let error as InputError {
            throw parsed.usageError(error.message)
        } catch is NewAdminNeedsPassword {
            throw parsed.usageError("\(name) does not exist yet; give its password with --password-stdin")
        }
        switch change {
        case .created: print("Created admin \(name).")
        case .promoted: print("\(name) is now an admin\(password != nil ? " (password changed; their other sessions ended)" : "").")
        }
        return 0
    }

    static func removeAdmin(_ parsed: ParsedCommand) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        let removed = try removeAdmin(dataDirectory: parsed.string("--data") ?? ServerConfiguration().dataDirectory, username: name,
                                      database: parsed.string("--database"))
        print(removed ? "\(name) is no longer an admin." : "\(name) was not an admin; nothing changed.")
        return 0
    }

    static func resetPassword(_ parsed: ParsedCommand) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        guard parsed.flag("--password-stdin") else { throw parsed.usageError("give the new password on standard input with --password-stdin") }
        let password = try readPassword(parsed)
        let ended: Int
        do {
            ended = try resetPassword(dataDirectory: parsed.string("--data") ?? ServerConfiguration().dataDirectory,
                                      username: name, password: password, database: parsed.string("--database"))
        } catch let error as InputError {
            throw parsed.usageError(error.message)
        }
        print("Password of \(name) reset; \(ended) session\(ended == 1 ? "" : "s") ended.")
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
        let name = feed
        let count = try write(dataDirectory: data, database: parsed.string("--database"), create: false,
                              audit: ("reset-feeds", feed.map { "feed \($0)" } ?? "every feed")) { store in
            try store.resetFeeds(named: name)
        }
        print("Reset \(feed ?? "every feed"): \(count) snap\(count == 1 ? "" : "s") deleted.")
        return 0
    }
}
