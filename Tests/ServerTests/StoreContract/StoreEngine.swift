import TestSupport
import Testing

@testable import Server

/// A storage engine the contract suites run against: it makes fresh, empty databases and opens
/// stores (connections) on them. Every contract test runs once per engine in `all`.
struct StoreEngine: Sendable, CustomTestStringConvertible {
    let name: String
    /// Runs `body` with a fresh database of this engine, removed afterwards; `open` opens one
    /// more store on it each time it is called (a test racing connections opens several).
    let withDatabase: @Sendable (_ body: (_ open: () throws -> any SnapshareStore) throws -> Void) throws -> Void

    var testDescription: String { name }

    /// Runs `body` with one store on a fresh database.
    func withStore(_ body: (any SnapshareStore) throws -> Void) throws {
        try withDatabase { open in try body(try open()) }
    }

    /// Every engine the contract holds for; a new engine is one more entry here. PostgreSQL
    /// joins when its programs are installed (`.ci/run` installs them).
    static let all: [StoreEngine] = [.sqlite] + (PostgresCluster.shared != nil ? [.postgres] : [])

    /// SQLite, in a file in a temporary directory.
    static let sqlite = StoreEngine(name: "SQLite") { body in
        try withTemporaryDatabase { path in try body { try SQLStore.sqlite(path: path) } }
    }

    /// PostgreSQL, a fresh database in the test process's throwaway cluster.
    static let postgres = StoreEngine(name: "PostgreSQL") { body in
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        try body { try SQLStore.postgres(conninfo: conninfo) }
    }
}
