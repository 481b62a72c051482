import Testing
import TestSupport
@testable import Server

/// The concerns the PostgreSQL engine implements so far: the contract suites of these run
/// against every engine in `StoreEngine.core`; the rest against `StoreEngine.all`.
typealias CoreStore = AccountStore & SessionStore & FeedStore & MapStateStore & MovieStore

/// A storage engine the contract suites run against: it makes fresh, empty databases and opens
/// stores (connections) on them. Every contract test runs once per engine in its list.
struct StoreEngine: Sendable, CustomTestStringConvertible {
    let name: String
    /// Runs `body` with a fresh database of this engine, removed afterwards; `open` opens one
    /// more store on it each time it is called (a test racing connections opens several).
    let withDatabase: @Sendable (_ body: (_ open: () throws -> AnyObject) throws -> Void) throws -> Void

    var testDescription: String { name }

    /// Runs `body` with one store on a fresh database (engines that implement every concern).
    func withStore(_ body: (any SnapshareStore) throws -> Void) throws {
        try withDatabase { open in try body(try open() as! any SnapshareStore) }
    }

    /// Runs `body` with one store on a fresh database, for the concerns of `CoreStore`.
    func withCoreStore(_ body: (any CoreStore) throws -> Void) throws {
        try withDatabase { open in try body(try open() as! any CoreStore) }
    }

    /// Every engine that implements the whole contract; a new engine is one more entry here.
    static let all: [StoreEngine] = [.sqlite]
    /// Every engine that implements `CoreStore`: PostgreSQL joins when its programs are installed
    /// (`.ci/run` installs them).
    static let core: [StoreEngine] = [.sqlite] + (PostgresCluster.shared != nil ? [.postgres] : [])

    /// SQLite, in a file in a temporary directory.
    static let sqlite = StoreEngine(name: "SQLite") { body in
        try withTemporaryDatabase { path in try body { try SQLiteStore(path: path) } }
    }

    /// PostgreSQL, a fresh database in the test process's throwaway cluster.
    static let postgres = StoreEngine(name: "PostgreSQL") { body in
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        try body { try PostgresStore(conninfo: conninfo) }
    }
}
