import Testing

@testable import Server

/// What every engine's `AccountStore` does.
@Suite("Account store contract")
struct AccountStoreContract {
    @Test(
        "user names are unique and looked up in any case, keeping the spelling they were created with",
        arguments: StoreEngine.all)
    func userNamesAreCaseInsensitive(engine: StoreEngine) throws {
        try engine.withStore { store in
            let alice = try store.createUser(name: "Alice", passwordHash: "hash", isAdmin: false, at: 5)
            #expect(alice.name == "Alice" && alice.passwordHash == "hash" && !alice.isAdmin && alice.createdAt == 5)
            #expect(
                storeErrorKind { _ = try store.createUser(name: "aLiCe", passwordHash: "x", isAdmin: true, at: 6) }
                    == .conflict)
            #expect(try store.user(named: "ALICE") == alice)
            #expect(try store.user(id: alice.id) == alice)
            #expect(try store.user(named: "bob") == nil)
            #expect(try store.user(id: alice.id + 1_000) == nil)
        }
    }

    @Test(
        "the admin right and the password hash change in place; an unknown user is not found",
        arguments: StoreEngine.all)
    func adminRightAndPasswordChange(engine: StoreEngine) throws {
        try engine.withStore { store in
            let alice = try store.createUser(name: "alice", passwordHash: "old", isAdmin: false, at: 5)
            try store.setAdmin(userID: alice.id, isAdmin: true)
            try store.setPasswordHash(userID: alice.id, passwordHash: "new")
            #expect(try store.user(id: alice.id)?.isAdmin == true)
            #expect(try store.user(named: "alice")?.passwordHash == "new")
            try store.setAdmin(userID: alice.id, isAdmin: false)
            #expect(try store.user(id: alice.id)?.isAdmin == false)
            #expect(storeErrorKind { try store.setAdmin(userID: 999, isAdmin: true) } == .notFound)
            #expect(storeErrorKind { try store.setPasswordHash(userID: 999, passwordHash: "x") } == .notFound)
        }
    }

    @Test("user summaries list every user by name with their posts and views", arguments: StoreEngine.all)
    func userSummaries(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.alice)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            let summaries = try store.userSummaries(now: 0)
            #expect(summaries.map(\.name) == ["alice", "bob", "carol"])
            #expect(summaries[0].postCount == 2 && summaries[0].viewCount == 0)
            #expect(summaries[1].postCount == 0 && summaries[1].viewCount == 1)
            #expect(summaries[2].isAdmin && summaries[2].createdAt == 3)
        }
    }
}
