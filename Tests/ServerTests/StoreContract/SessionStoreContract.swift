import Testing

@testable import Server

/// What every engine's `SessionStore` does.
@Suite("Session store contract")
struct SessionStoreContract {
    private static let aliceToken = [UInt8](repeating: 7, count: 32)
    private static let bobToken = [UInt8](repeating: 8, count: 32)

    @Test("a session finds its user until it expires, and ends when deleted", arguments: StoreEngine.all)
    func sessionsExpire(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            try store.createSession(userID: fixture.alice.id, tokenHash: Self.aliceToken, at: 100, expiresAt: 200)
            try store.createSession(userID: fixture.bob.id, tokenHash: Self.bobToken, at: 100, expiresAt: 500)
            #expect(
                storeErrorKind {
                    try store.createSession(userID: 999, tokenHash: [1], at: 1, expiresAt: 2)
                } == .notFound)
            #expect(try store.sessionUser(tokenHash: Self.aliceToken, now: 199)?.id == fixture.alice.id)
            #expect(try store.sessionUser(tokenHash: Self.aliceToken, now: 200) == nil)
            #expect(try store.sessionUser(tokenHash: [1, 2, 3], now: 0) == nil)
            #expect(try store.deleteExpiredSessions(now: 300) == 1)
            #expect(try store.sessionUser(tokenHash: Self.bobToken, now: 300)?.id == fixture.bob.id)
            try store.deleteSession(tokenHash: Self.bobToken)
            #expect(try store.sessionUser(tokenHash: Self.bobToken, now: 0) == nil)
        }
    }

    @Test("ending a user's sessions keeps the one asked for and no other user's", arguments: StoreEngine.all)
    func endingAUsersSessions(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let tokens = (1...3).map { [UInt8](repeating: $0, count: 32) }
            for token in tokens {
                try store.createSession(userID: fixture.alice.id, tokenHash: token, at: 1, expiresAt: 1_000)
            }
            try store.createSession(userID: fixture.bob.id, tokenHash: Self.bobToken, at: 1, expiresAt: 1_000)
            #expect(try store.deleteSessions(userID: fixture.alice.id, keeping: tokens[0]) == 2)
            #expect(try store.sessionUser(tokenHash: tokens[0], now: 10)?.id == fixture.alice.id)
            #expect(try store.sessionUser(tokenHash: tokens[1], now: 10) == nil)
            #expect(try store.deleteSessions(userID: fixture.alice.id, keeping: nil) == 1)
            #expect(try store.sessionUser(tokenHash: tokens[0], now: 10) == nil)
            #expect(try store.sessionUser(tokenHash: Self.bobToken, now: 10)?.id == fixture.bob.id)
        }
    }

    @Test(
        "the access epoch moves when a session ends or an admin right or password changes, not when one starts",
        arguments: StoreEngine.all)
    func accessEpochMoves(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            var epoch = try store.accessEpoch()
            // Whether the epoch moved since the last call.
            func moved() throws -> Bool {
                let now = try store.accessEpoch()
                defer { epoch = now }
                return now != epoch
            }
            try store.createSession(userID: fixture.alice.id, tokenHash: Self.aliceToken, at: 1, expiresAt: 50)
            try store.createSession(userID: fixture.bob.id, tokenHash: Self.bobToken, at: 1, expiresAt: 1_000)
            #expect(try !moved())
            try store.deleteSession(tokenHash: Self.bobToken)
            #expect(try moved())
            try store.setAdmin(userID: fixture.alice.id, isAdmin: true)
            #expect(try moved())
            try store.setPasswordHash(userID: fixture.alice.id, passwordHash: "new")
            #expect(try moved())
            #expect(try store.deleteExpiredSessions(now: 100) == 1)
            #expect(try moved())
            try store.createSession(userID: fixture.bob.id, tokenHash: Self.bobToken, at: 1, expiresAt: 1_000)
            #expect(try store.deleteSessions(userID: fixture.bob.id, keeping: nil) == 1)
            #expect(try moved())
        }
    }

    @Test(
        "session access tells, token by token, whether a session lives, with which admin right and in which classes",
        arguments: StoreEngine.all)
    func sessionAccess(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let carolToken = [UInt8](repeating: 9, count: 32)
            try store.createSession(userID: fixture.alice.id, tokenHash: Self.aliceToken, at: 1, expiresAt: 1_000)
            try store.createSession(userID: fixture.bob.id, tokenHash: Self.bobToken, at: 1, expiresAt: 100)
            try store.createSession(userID: fixture.carol.id, tokenHash: carolToken, at: 1, expiresAt: 1_000)
            let unknown = [UInt8](repeating: 1, count: 32)
            let first = try #require(try store.firstClass())
            try store.setMember(userID: fixture.alice.id, classID: first.id, role: .ta, at: 2)
            let aliceIn = CurrentClass(id: first.id, handle: first.handle, role: .ta)
            var carol = SessionAccess(tokenHash: carolToken, isAdmin: true, name: "carol")
            // A site admin in no class acts in the first one, as its owner without a role of their own.
            carol.defaultClass = CurrentClass(id: first.id, handle: first.handle, role: nil)
            var alice = SessionAccess(tokenHash: Self.aliceToken, isAdmin: false, name: "alice")
            alice.classes = [aliceIn]
            alice.defaultClass = aliceIn
            let sessions = [
                (carolToken, fixture.carol.id), (Self.aliceToken, fixture.alice.id), (Self.bobToken, fixture.bob.id),
                (unknown, fixture.alice.id),
            ].map { (tokenHash: $0.0, userID: $0.1) }
            #expect(
                try store.sessionAccess(sessions: sessions, now: 500)
                    == [
                        carol, alice,
                        SessionAccess(tokenHash: Self.bobToken, isAdmin: nil), SessionAccess(tokenHash: unknown, isAdmin: nil),
                    ])
            try store.setAdmin(userID: fixture.alice.id, isAdmin: true)
            try store.renameUser(userID: fixture.alice.id, to: "ada")
            #expect(
                try store.sessionAccess(sessions: [(Self.aliceToken, fixture.alice.id)], now: 500).map(\.name) == ["ada"], "a rename shows")
            try store.deleteSession(tokenHash: carolToken)
            #expect(
                try store.sessionAccess(sessions: [(Self.aliceToken, fixture.alice.id), (carolToken, fixture.carol.id)], now: 500)
                    .map(\.isAdmin) == [true, nil])
            #expect(try store.sessionAccess(sessions: [], now: 500).isEmpty)
            // A session gone with its account says why: deleted, or disabled.
            try store.createSession(userID: fixture.bob.id, tokenHash: Self.bobToken + [1], at: 1, expiresAt: 1_000)
            try store.setDisabled(userID: fixture.bob.id, disabled: true)
            _ = try store.deleteUser(userID: fixture.alice.id)
            #expect(
                try store.sessionAccess(
                    sessions: [
                        (Self.aliceToken, fixture.alice.id), (Self.bobToken + [1], fixture.bob.id),
                        (carolToken, fixture.carol.id),
                    ], now: 500
                ).map(\.closure) == [.deleted, .disabled, nil])
        }
    }
}
