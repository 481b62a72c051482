import CommandLineParsing
import Foundation
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// Maintenance that opens the database directly, for when the server is stopped (SQLite's
/// locking makes it safe while it runs, too), or, with `--database`, the PostgreSQL database
/// that running instances share.
package enum OfflineAdmin {
    /// Says on standard error what was changed besides the request (a data folder made owner-only).
    private static let logger = Logger(level: .warning)

    /// What `addAdmin` did.
    package enum AdminChange: Sendable, Equatable {
        case created, promoted
    }

    /// `addAdmin` for a user that does not exist yet, without a password to create it with.
    struct NewAdminNeedsPassword: Error, CustomStringConvertible {
        var username: String
        package var description: String { "\(username) does not exist yet; an admin needs a password" }
    }

    /// Creates `username` as an admin (a password is then required), or promotes an existing
    /// user and, when a password is given, sets it. Bad input throws `InputError`. Recorded in
    /// the audit log as `admin add`.
    @discardableResult
    package static func addAdmin(dataDirectory: String, username: String, password: String?, database: String? = nil) throws -> AdminChange
    {
        try OfflineAction.run("admin add", store: .store(dataDirectory: dataDirectory, database: database)) {
            try addAdmin(username: username, password: password, $0)
        }
    }

    static func addAdmin(username: String, password: String?, _ action: OfflineAction) throws -> AdminChange {
        action.target = "user \(username)"
        if let problem = InputRules.validateUsername(username) { throw InputError(problem) }
        if let password, let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        // The deliberately slow hash runs before, not inside, the storage job.
        let hash = try password.map { try PasswordHasher().hash(password: $0) }
        let now = WallClock.system.now()
        return try write(action) { store in
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
    package static func removeAdmin(dataDirectory: String, username: String, database: String? = nil) throws -> Bool {
        try OfflineAction.run("admin remove", store: .store(dataDirectory: dataDirectory, database: database)) {
            try removeAdmin(username: username, $0)
        }
    }

    static func removeAdmin(username: String, _ action: OfflineAction) throws -> Bool {
        action.target = "user \(username)"
        return try write(action) { store in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            guard user.isAdmin else { return false }
            try store.setAdmin(userID: user.id, isAdmin: false)
            return true
        }
    }

    /// Sets `username`'s password without changing its admin right, and ends all its sessions
    /// (a running server closes their connections within a second). Returns the sessions ended.
    @discardableResult
    package static func resetPassword(dataDirectory: String, username: String, password: String, database: String? = nil) throws -> Int {
        try OfflineAction.run("admin reset-password", store: .store(dataDirectory: dataDirectory, database: database)) {
            try resetPassword(username: username, password: password, $0)
        }
    }

    static func resetPassword(username: String, password: String, _ action: OfflineAction) throws -> Int {
        action.target = "user \(username)"
        if let problem = InputRules.validatePassword(password) { throw InputError(problem) }
        let hash = try PasswordHasher().hash(password: password)
        return try write(action) { store in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            try store.setPasswordHash(userID: user.id, passwordHash: hash)
            return try store.deleteSessions(userID: user.id, keeping: nil)
        }
    }

    /// Runs one write job on the action's database, which must exist unless `create`, and
    /// records the action in the same transaction, so the change and its entry go together. A
    /// new data folder and its database appear only when the job succeeds: a refused command
    /// leaves the disk as it found it.
    static func write<T: Sendable>(
        _ action: OfflineAction, create: Bool = true,
        _ job: @escaping @Sendable (any SnapshareStore) throws -> T
    ) throws -> T {
        let entry = action.entry
        let audited: @Sendable (any SnapshareStore) throws -> T = { store in
            let result = try job(store)
            try store.recordAudit(entry, classID: nil)
            return result
        }
        guard try create || OfflineAction.holdsSnapshareDatabase(action.store) else {
            throw ConfigurationError("no Snapshare database in \(action.store.storePlace)")
        }
        let value: T
        if let database = action.store.database {
            // The database every instance shares: the change reaches them all at once.
            let storage = try StorageExecutor.postgres(conninfo: database, readers: 1)
            defer { storage.shutdown() }
            value = try storage.writeSync(audited)
        } else {
            value = try writeSQLite(in: action.store.dataDirectory, audited)
        }
        action.recorded()
        return value
    }

    /// `job` on the data folder's SQLite database; a folder without one gets it (and is made)
    /// under a hidden name, named only once the job succeeded.
    private static func writeSQLite<T: Sendable>(in dataDirectory: String, _ job: @escaping @Sendable (any SnapshareStore) throws -> T)
        throws -> T
    {
        func run(_ path: String) throws -> T {
            let storage = try StorageExecutor.sqlite(path: path, readers: 1)
            defer { storage.shutdown() }
            return try storage.writeSync(job)
        }
        let path = ServerConfiguration.databasePath(in: dataDirectory)
        if FileManager.default.fileExists(atPath: path) {
            let result = try run(path)
            // The same owner-only folder as the server makes, once the command has done its work.
            try DataDirectory.prepare(dataDirectory, logger: logger)
            return result
        }
        // A new class: its folder and database appear only when the command succeeds.
        let staged = try DataDirectory.stageNew(dataDirectory)
        let result = try run(ServerConfiguration.databasePath(in: staged.temporaryPath))
        try staged.commit()
        return result
    }

    static func addAdmin(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        action.target = "user \(name)"
        let password = parsed.flag("--password-stdin") ? try readPassword(parsed) : nil
        let change: AdminChange
        do {
            change = try addAdmin(username: name, password: password, action)
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

    static func removeAdmin(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        let removed = try removeAdmin(username: name, action)
        print(removed ? "\(name) is no longer an admin." : "\(name) was not an admin; nothing changed.")
        return 0
    }

    static func resetPassword(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        action.target = "user \(name)"
        guard parsed.flag("--password-stdin") else {
            throw parsed.usageError("give the new password on standard input with --password-stdin")
        }
        let password = try readPassword(parsed)
        let ended: Int
        do {
            ended = try resetPassword(username: name, password: password, action)
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

    static func resetFeeds(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let all = parsed.flag("--all")
        action.target = parsed.string("--feed").map { "feed \($0)" } ?? (all ? "every feed" : "")
        var feed: String?
        if let raw = parsed.string("--feed") {
            switch InputRules.normalizedFeedName(raw) {
            case .success(let name): feed = name
            case .failure(let error): throw parsed.usageError(error.message)
            }
        }
        guard (feed != nil) != all else { throw parsed.usageError("give exactly one of --feed NAME or --all") }
        let name = feed
        let count = try write(action, create: false) { store in try store.resetFeeds(named: name, classID: store.offlineClass(parsed).id) }
        print("Reset \(feed ?? "every feed"): \(count) snap\(count == 1 ? "" : "s") deleted.")
        return 0
    }
}
