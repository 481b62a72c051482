import CPostgreSQL
import Foundation
import Posix
import SQL

/// One libpq connection, used by one thread at a time.
///
/// Statements are prepared once per connection (by their SQL text and their values' types) and run with binary
/// parameters and binary results, so integers, doubles and `bytea` travel as they are, with no
/// text escaping and no parsing. Rows are read by column name. `transaction` nests with
/// savepoints, as the SQLite layer does.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// Prepared statements by SQL text and parameter types: their server-side names.
    private var prepared: [PreparedKey: String] = [:]
    /// How many statements this connection holds prepared (one per distinct SQL text, and per
    /// set of parameter types it was run with).
    public var preparedStatementCount: Int { prepared.count }
    private var transactionDepth = 0
    /// Run on every new connection, the first and each `reconnect`.
    private let sessionSetup: String?

    /// Connects with a libpq connection string or URI (`postgresql://user@host:port/db`,
    /// `host=/tmp port=5432 dbname=x`); `sslmode`, a password file and the rest as libpq reads them.
    /// `sessionSetup` (such as `SET SESSION CHARACTERISTICS …`) runs now and after every reconnect.
    public init(_ conninfo: String, sessionSetup: String? = nil) throws(PostgresError) {
        guard let connection = PQconnectdb(conninfo) else { throw PostgresError(sqlState: "08000", message: "out of memory") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(sqlState: "08001", message: "cannot connect to PostgreSQL: \(message)")
        }
        handle = connection
        self.sessionSetup = sessionSetup
        // Notices (such as "table does not exist, skipping") are not errors: keep them out of stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        if let sessionSetup { try executeScript(sessionSetup) }
    }

    deinit { PQfinish(handle) }

    /// For the LISTEN side (in an extension of this file's module).
    var handleForNotifications: OpaquePointer { handle }

    /// Whether the connection is still usable (false after the server went away).
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Connects again with the same parameters after the server went away (a restart, a
    /// network cut); prepared statements are prepared again as they are used. Throws while the
    /// server still cannot be reached.
    public func reconnect() throws(PostgresError) {
        // A transaction does not survive its connection: it must end (its ROLLBACK fails
        // harmlessly) before a new connection may stand in for the old one.
        guard transactionDepth == 0 else {
            throw PostgresError(
                sqlState: "08003", message: "the connection to PostgreSQL was lost inside a transaction; it was rolled back")
        }
        PQreset(handle)
        prepared = [:]
        transactionDepth = 0
        guard isConnected else {
            throw PostgresError(sqlState: "08001", message: "cannot reach PostgreSQL: \(Self.text(PQerrorMessage(handle)))")
        }
        if let sessionSetup { try executeScript(sessionSetup) }
    }

    /// Makes the connection again when the server dropped it (PostgreSQL restarted), before a
    /// statement. Inside a transaction `reconnect` refuses, so every statement of a batch fails
    /// until it has rolled back, and no part of it commits on a new connection behind the
    /// others' backs. While PostgreSQL cannot be reached every statement fails, and the next
    /// one tries again.
    private func reconnectIfLost() throws(PostgresError) {
        if !isConnected { try reconnect() }
    }

    // The two below take text and values apart, for this module's own statements; everything
    // else runs `SQL` (PostgresConnection+SQL), so a value can never be spliced into a
    // statement's text by accident.

    /// Runs `sql` with `parameters` ($1, $2, …) and returns its rows (none for a command).
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue] = []) throws(PostgresError) -> [PostgresRow] {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return PostgresRow.rows(of: result)
    }

    /// Runs a command and returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(PostgresError) -> Int {
        let result = try run(sql, parameters)
        defer { PQclear(result) }
        return Int(Self.text(PQcmdTuples(result))) ?? 0
    }

    /// Runs statements with no parameters and no rows, such as a schema (several at once).
    public func executeScript(_ sql: String) throws(PostgresError) {
        try reconnectIfLost()
        try control(sql)
    }

    /// Runs statements with no parameters on this connection as it is, never a new one: what
    /// ends or continues a transaction must fail on a lost connection, not succeed on a new one
    /// where the transaction never was.
    private func control(_ sql: String) throws(PostgresError) {
        if SQLTrace.isOn { SQLTrace.record(engine: "postgres", sql: sql, values: []) }
        guard let result = PQexec(handle, sql) else { throw failure(nil) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result) }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. Nested
    /// calls use savepoints, so an inner failure undoes only the inner work.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        // Only a BEGIN may find the connection lost and make it again: no transaction is open yet.
        if depth == 0 { try executeScript("BEGIN") } else { try control("SAVEPOINT level\(depth)") }
        transactionDepth += 1
        let value: T
        do {
            value = try body()
        } catch {
            transactionDepth -= 1
            try? control(depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT level\(depth); RELEASE SAVEPOINT level\(depth)")
            throw error
        }
        // Closed whether or not the COMMIT goes through: a failed COMMIT is a rollback.
        transactionDepth -= 1
        try control(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT level\(depth)")
        return value
    }

    // MARK: Statements

    private func run(_ sql: String, _ parameters: [SQLValue]) throws(PostgresError) -> OpaquePointer {
        try reconnectIfLost()
        if SQLTrace.isOn { SQLTrace.record(engine: "postgres", sql: sql, values: parameters) }
        let name = try statementName(sql, parameters)
        let encoded = parameters.map(\.binary)
        let lengths = encoded.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        let result: OpaquePointer? = withPointers(encoded) { pointers in
            PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 1)
        }
        guard let result else { throw failure(nil) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            defer { PQclear(result) }
            throw failure(result)
        }
        return result
    }

    /// A statement as prepared: its text and the types its parameters were declared with.
    private struct PreparedKey: Hashable {
        var sql: String
        var types: [Oid]
    }

    /// The prepared statement for `sql`, prepared now the first time, with the parameter types
    /// of this call (a NULL leaves its type to the server). The types are part of the key: a
    /// statement first run with NULL where a `smallint` goes was prepared with the server's
    /// `smallint`, which the same text run with a value (sent as `int8`) must not reuse.
    private func statementName(_ sql: String, _ parameters: [SQLValue]) throws(PostgresError) -> String {
        let types = parameters.map(\.typeOID)
        let key = PreparedKey(sql: sql, types: types)
        if let name = prepared[key] { return name }
        let name = "s\(prepared.count + 1)"
        guard let result = PQprepare(handle, name, sql, Int32(types.count), types) else { throw failure(nil) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw failure(result) }
        prepared[key] = name
        return name
    }

    private func withPointers<R>(_ values: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        // Each parameter's bytes stay alive (and unmoved) for the call.
        var pointers: [UnsafePointer<CChar>?] = []
        var buffers: [UnsafeMutablePointer<CChar>] = []
        defer { for buffer in buffers { buffer.deallocate() } }
        for value in values {
            guard let value else {
                pointers.append(nil)
                continue
            }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, value.count))
            value.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: value.count) }
            }
            buffers.append(buffer)
            pointers.append(UnsafePointer(buffer))
        }
        return body(pointers)
    }

    private func failure(_ result: OpaquePointer?) -> PostgresError {
        if let result, let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))) {
            let message =
                PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? Self.text(PQerrorMessage(handle))
            return PostgresError(sqlState: String(cString: state), message: message)
        }
        // No SQLSTATE: the connection itself failed.
        return PostgresError(sqlState: isConnected ? "XX000" : "08006", message: Self.text(PQerrorMessage(handle)))
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }
}

// MARK: LISTEN / NOTIFY

/// A notification delivered to a connection that LISTENs.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process of the connection that sent it.
    public let senderPID: Int32
}

extension PostgresConnection {
    /// This connection's server process (to recognise notifications it sent itself).
    public var backendPID: Int32 { PQbackendPID(handleForNotifications) }

    /// Waits up to `timeoutMilliseconds` for notifications and returns those that arrived
    /// (empty on a timeout). Throws when the connection is lost.
    public func waitForNotifications(timeoutMilliseconds: Int32) throws(PostgresError) -> [PostgresNotification] {
        let socket = PQsocket(handleForNotifications)
        guard socket >= 0 else { throw PostgresError(sqlState: "08006", message: "the connection to PostgreSQL is closed") }
        let ready: Bool
        do { ready = try Syscall.waitUntilReadable(socket, timeoutMilliseconds: timeoutMilliseconds) } catch {
            throw PostgresError(sqlState: "08006", message: "waiting for PostgreSQL's notifications failed: \(error)")
        }
        if ready {
            guard PQconsumeInput(handleForNotifications) == 1 else {
                throw PostgresError(
                    sqlState: "08006",
                    message: "the connection to PostgreSQL was lost: \(Self.text(PQerrorMessage(handleForNotifications)))")
            }
        }
        var found: [PostgresNotification] = []
        while let notification = PQnotifies(handleForNotifications) {
            found.append(
                PostgresNotification(
                    channel: String(cString: notification.pointee.relname),
                    payload: String(cString: notification.pointee.extra),
                    senderPID: notification.pointee.be_pid))
            PQfreemem(notification)
        }
        return found
    }
}
