import Client
import Foundation
import Server
import TestSupport
import Testing
import Wire

/// Logout, a password change and a lost admin right take effect on every live connection of
/// that session or user at once, over real TLS with real parallel connections.
@Suite struct SessionRevocationTests {
    /// Registers `username` on a fresh connection; returns it and the session token.
    static func register(_ server: TestServer, _ username: String, password: String = "long enough pw") throws -> (ServerConnection, String)
    {
        let connection = try server.connection()
        let identity = try ServerConnection.expect(
            try connection.roundTrip(Register(username: username, password: password, classCode: "")),
            as: Authenticated.self)
        return (connection, identity.token)
    }

    static func resumed(_ server: TestServer, _ token: String) throws -> ServerConnection {
        let connection = try server.connection()
        let identity = try ServerConnection.expect(try connection.roundTrip(Resume(token: token)), as: Authenticated.self)
        #expect(identity.token == token, "Resume answers with the token it was given")
        return connection
    }

    /// The next frame is the server's fatal SESSION_INVALID with id 0, and then the connection closes.
    static func expectSessionEnded(_ connection: ServerConnection, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let frame = try connection.receive()
        let error = try frame.decode(ErrorMessage.self)
        #expect(error.code == .sessionInvalid, "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.fatal, sourceLocation: sourceLocation)
        #expect(frame.requestID == 0, "it answers no request", sourceLocation: sourceLocation)
        MalformedFrameTests.expectClosed(connection, sourceLocation: sourceLocation)
    }

    @Test func logoutEndsTheSessionOnEveryConnection() throws {
        let server = try TestServer()
        let (first, token) = try Self.register(server, "alice")
        let second = try Self.resumed(server, token)
        let third = try Self.resumed(server, token)
        _ = try ServerConnection.expect(try second.roundTrip(Logout()), as: Ok.self)
        try Self.expectSessionEnded(first)
        try Self.expectSessionEnded(third)
        // The connection that logged out stays open, logged out.
        #expect(try second.roundTrip(ListFeeds()).decode(ErrorMessage.self).code == .authRequired)
        #expect(try server.connection().roundTrip(Resume(token: token)).decode(ErrorMessage.self).code == .sessionInvalid)
    }

    @Test func aPasswordChangeEndsTheUsersOtherSessions() throws {
        let server = try TestServer()
        let (mine, myToken) = try Self.register(server, "bob", password: "old password")
        let laptop = try server.connection()
        let other = try ServerConnection.expect(
            try laptop.roundTrip(Login(username: "bob", password: "old password")), as: Authenticated.self)
        let phone = try Self.resumed(server, other.token)
        let reply = try mine.roundTrip(ChangePassword(oldPassword: "old password", newPassword: "new password"))
        _ = try ServerConnection.expect(reply, as: Ok.self)
        try Self.expectSessionEnded(laptop)
        try Self.expectSessionEnded(phone)
        #expect(try mine.roundTrip(WhoAmI()).type == MessageType.authenticated.rawValue, "the session that changed it stays")
        _ = try Self.resumed(server, myToken)
        #expect(try server.connection().roundTrip(Resume(token: other.token)).decode(ErrorMessage.self).code == .sessionInvalid)
        #expect(
            try server.connection().roundTrip(Login(username: "bob", password: "old password")).decode(ErrorMessage.self).code
                == .badCredentials)
        #expect(
            try server.connection().roundTrip(Login(username: "bob", password: "new password")).type == MessageType.authenticated.rawValue)
    }

    @Test func aWrongCurrentPasswordChangesNothing() throws {
        let server = try TestServer()
        let (mine, _) = try Self.register(server, "bob", password: "old password")
        let error = try mine.roundTrip(ChangePassword(oldPassword: "not it at all", newPassword: "new password")).decode(ErrorMessage.self)
        #expect(error.code == .badCredentials)
        #expect(
            try server.connection().roundTrip(Login(username: "bob", password: "old password")).type == MessageType.authenticated.rawValue)
    }

    @Test func anAdminPasswordResetEndsEverySessionWithoutPromoting() throws {
        let server = try TestServer()
        let admin = try server.makeAdmin("teacher")
        let (student, _) = try Self.register(server, "carol")
        try admin.resetPassword(of: "carol", to: "a fresh password")
        try Self.expectSessionEnded(student)
        let identity = try ServerConnection.expect(
            try server.connection().roundTrip(Login(username: "carol", password: "a fresh password")), as: Authenticated.self)
        #expect(!identity.isAdmin)
    }

    @Test func losingAdminRightsAppliesToLiveConnectionsAtOnce() throws {
        let server = try TestServer()
        let teacher = try server.makeAdmin("teacher")
        let assistant = try server.makeAdmin("assistant")
        #expect(try !assistant.stats().isEmpty)
        try teacher.setAdmin("assistant", isAdmin: false)
        // A site admin in no class is, without the right, in no class at all.
        #expect(clientError { _ = try assistant.stats() }?.serverCode == .notFound, "no new login needed to lose the right")
        #expect(try assistant.whoAmI().isAdmin == false)
        try teacher.setAdmin("assistant", isAdmin: true)
        #expect(try !assistant.stats().isEmpty)
        #expect(clientError { try teacher.setAdmin("teacher", isAdmin: false) }?.serverCode == .invalidArgument)
    }

    @Test func offlineChangesReachLiveConnectionsWithinSeconds() throws {
        let server = try TestServer()
        let assistant = try server.makeAdmin("assistant")
        let (student, _) = try Self.register(server, "dave")
        try OfflineAdmin.resetPassword(
            dataDirectory: server.dataPath, username: "dave", password: "reset offline",
            database: server.configuration.database)
        try Self.expectSessionEnded(student)
        try OfflineAdmin.removeAdmin(dataDirectory: server.dataPath, username: "assistant", database: server.configuration.database)
        // A right lost reaches the live connection with no message to it: asking is how it shows.
        let code = try eventually("the assistant's stats to be refused", timeout: 10, every: 0.1) { () -> ErrorCode? in
            let code = clientError { _ = try assistant.stats() }?.serverCode
            return code == .notFound ? code : nil
        }
        #expect(code == .notFound, "a site admin in no class is, without the right, in no class at all")
    }
}
