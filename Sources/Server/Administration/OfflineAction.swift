import ClassExport
import CommandLineParsing
import Foundation
import Posix
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// One run of an offline maintenance command (`snapshare-server admin …`, `export`, `backup`,
/// `restore`, …) as the audit log records it: exactly one entry, whatever way the command ends,
/// read-only commands too. Every such command runs inside `OfflineAction.run`, the one path that
/// records them. The command names its target as soon as it knows it and may say how it ended
/// (`partial: 5 added, 3 refused`); an error it throws becomes the result (the code's name,
/// `refused:` and its words, or `cancelled`).
///
/// A command that changes the database records its entry in the transaction of its change
/// (`OfflineAdmin.write`, a restore's or migration's copy), so the two go together; any other
/// outcome is recorded afterwards, on its own. A data folder or PostgreSQL database without a
/// Snapshare database is left as it is: no database is made just to hold the entry, and the
/// command says on standard error that it is not recorded.
final class OfflineAction {
    let action: String
    /// The database the entry goes into: the one --data or --database names, unless the command
    /// says otherwise (a migration's refusal goes into the folder it copies from).
    var store: ServerConfiguration
    /// What the command acts on.
    var target: String
    /// How it ended, when it did not throw: `ok` unless the command says more.
    var result = "ok"
    private var isRecorded = false

    private init(_ action: String, target: String, store: ServerConfiguration) {
        self.action = action
        self.target = target
        self.store = store
    }

    /// Who an offline command runs as: `offline:` and the operating-system user.
    static var actor: String {
        "offline:" + ThisProcess.userName
    }

    /// The entry as it stands now.
    var entry: AuditRecord { AuditRecord(at: WallClock.system.now(), actor: Self.actor, action: action, target: target, result: result) }

    /// Runs `body` as the command `action` on the class's data in `store`, and records it once.
    static func run<T>(_ action: String, target: String = "", store: ServerConfiguration, _ body: (OfflineAction) throws -> T) throws -> T {
        let command = OfflineAction(action, target: target, store: store)
        do {
            let value = try body(command)
            command.recordAfterwards()
            return value
        } catch {
            command.result = result(of: error)
            // A command line refused before anything ran says only why, not also where its entry could not go.
            command.recordAfterwards(sayingWhyNot: !(error is UsageError || error is InputError))
            throw error
        }
    }

    /// Says the entry went into the database with the command's change.
    func recorded() { isRecorded = true }

    /// The result an error stands for.
    static func result(of error: any Error) -> String {
        switch error {
        case is Confirmation.Declined: "cancelled"
        case let error as StoreError: RequestHandler.errorMessage(for: error).code.name
        case let error as UsageError: "refused: " + error.message
        case let error as ConfigurationError: "refused: " + error.description
        case let error as InputError: "refused: " + error.message
        case let error as ClassExport.Failure: "refused: " + error.description
        case let error as OutputError: "refused: " + error.description
        default: "failed: \(error)"
        }
    }

    /// Records the entry on its own, unless the change carried it already.
    private func recordAfterwards(sayingWhyNot: Bool = true) {
        guard !isRecorded else { return }
        let entry = self.entry
        do {
            guard try Self.holdsSnapshareDatabase(store) else {
                if sayingWhyNot {
                    Self.say(
                        "\(action) is not recorded in the audit log: \(store.storePlace) holds no Snapshare database, "
                            + "and none is made only to record it"
                    )
                }
                return
            }
            let database = try store.database.map { try SQLStore.postgres(conninfo: $0) } ?? SQLStore.sqlite(path: store.databasePath)
            try database.recordAudit(entry, classID: nil)
            isRecorded = true
        } catch {
            Self.say("\(action) could not be recorded in the audit log: \(error)")
        }
    }

    /// Whether `configuration` names a Snapshare database that exists: a data folder's file, or a
    /// PostgreSQL database with Snapshare's tables (opening it to write would make them).
    static func holdsSnapshareDatabase(_ configuration: ServerConfiguration) throws -> Bool {
        guard let database = configuration.database else { return FileManager.default.fileExists(atPath: configuration.databasePath) }
        let reader = try SQLStore.postgres(conninfo: database, readOnly: true)
        return (try? reader.auditEntries(since: .max, limit: 1, classID: nil)) != nil
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data("snapshare-server: \(line)\n".utf8))
    }
}

extension ServerConfiguration {
    /// Where an offline command finds the class's data: a data folder, or a PostgreSQL database.
    static func store(dataDirectory: String, database: String?) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.dataDirectory = dataDirectory
        configuration.database = database
        return configuration
    }

    /// The data folder, or the PostgreSQL database (without its password), for messages.
    var storePlace: String { database == nil ? dataDirectory : databaseDescription }
}
