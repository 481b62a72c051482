import Testing

@testable import Server

/// What every engine's `SnapshareStore.transaction` does: atomic, nesting as savepoints.
@Suite("Store transaction contract")
struct StoreTransactionContract {
    private struct Planned: Error {}

    @Test("nested transactions roll back only the level that failed", arguments: StoreEngine.all)
    func nestedTransactions(engine: StoreEngine) throws {
        try engine.withStore { store in
            let value = try store.transaction {
                _ = try store.createFeed(name: "outer", at: 1)
                #expect(throws: Planned.self) {
                    try store.transaction {
                        _ = try store.createFeed(name: "inner", at: 1)
                        throw Planned()
                    }
                }
                return 42
            }
            #expect(value == 42)
            #expect(try store.feed(named: "outer") != nil)
            #expect(try store.feed(named: "inner") == nil)
            #expect(throws: Planned.self) {
                try store.transaction {
                    _ = try store.createFeed(name: "doomed", at: 1)
                    try store.transaction { _ = try store.createFeed(name: "doomed too", at: 1) }
                    throw Planned()
                }
            }
            #expect(try store.feed(named: "doomed") == nil)
            #expect(try store.feed(named: "doomed too") == nil)
            // The store is out of every transaction: this one stands on its own.
            _ = try store.createFeed(name: "after", at: 2)
            #expect(try store.feed(named: "after") != nil)
        }
    }

    @Test(
        "a store error inside a transaction comes out unchanged and undoes the transaction's other changes",
        arguments: StoreEngine.all)
    func storeErrorsComeOutUnchanged(engine: StoreEngine) throws {
        try engine.withStore { store in
            let kind = storeErrorKind {
                try store.transaction {
                    _ = try store.createFeed(name: "half done", at: 1)
                    _ = try store.createFeed(name: "Memes", at: 1)
                }
            }
            #expect(kind == .conflict)
            let halfDone = try store.feed(named: "half done")
            #expect(halfDone == nil)
        }
    }
}
