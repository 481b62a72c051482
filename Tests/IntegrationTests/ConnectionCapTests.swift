import Client
import Foundation
import TestSupport
import Testing
import Wire

/// One address, or one account, cannot take the server from everyone else: real TLS, real
/// parallel connections, and 127.0.0.2 standing in for another machine.
@Suite struct ConnectionCapTests {
    /// Opens up to `count` connections that say Hello and then only Ping; returns those the
    /// server kept.
    static func flood(_ server: TestServer, count: Int) -> [ServerConnection] {
        (0..<count).compactMap { _ in try? server.connection(timeout: 5) }
    }

    /// Seconds until a client from another address has registered.
    static func secondsToServeAnotherAddress(_ server: TestServer, username: String) throws -> Double {
        let started = Date()
        let connection = try server.connection(from: "127.0.0.2")
        let reply = try connection.roundTrip(Register(username: username, password: "long enough pw", classCode: ""))
        #expect(reply.type == MessageType.authenticated.rawValue)
        return Date().timeIntervalSince(started)
    }

    @Test func oneAddressCannotHoldMoreThanItsShareOfAnonymousConnections() throws {
        let server = try TestServer {
            $0.maxConnections = 40
            $0.maxAnonymousConnectionsPerAddress = 10
        }
        let attackers = Self.flood(server, count: 60)
        #expect(attackers.count == 10, "the rest were refused at accept")
        for attacker in attackers { _ = try? attacker.roundTrip(Ping()) }
        #expect(try Self.secondsToServeAnotherAddress(server, username: "student") < 1)
        #expect(server.server.metrics.refusedConnections == 50)
    }

    @Test func aFullServerShedsConnectionsThatHaveNotLoggedInBeforeRefusingUsers() throws {
        let server = try TestServer {
            $0.maxConnections = 12
            $0.maxAnonymousConnectionsPerAddress = 1000
        }
        let student = try server.registeredSession("student")
        let attackers = Self.flood(server, count: 11)
        #expect(attackers.count == 11)
        #expect(try Self.secondsToServeAnotherAddress(server, username: "latecomer") < 1)
        // The oldest anonymous connection made room, with a reason.
        let shed = try attackers[0].receive().decode(ErrorMessage.self)
        #expect(shed.code == .tooManyConnections)
        #expect(shed.fatal)
        // More anonymous connections keep shedding each other; the logged-in ones stay.
        _ = Self.flood(server, count: 20)
        #expect(try !student.feeds().isEmpty)
        // One each for the latecomer and for the twenty (less one if the latecomer's connection,
        // closed when it went out of scope, made room first).
        #expect(server.server.metrics.shedConnections >= 20)
    }

    @Test func aConnectionThatNeverLogsInIsClosedWhateverItSends() throws {
        let server = try TestServer { $0.loginTimeoutMilliseconds = 1000 }
        let idler = try server.connection()
        let started = Date()
        var error: ErrorMessage?
        while Date().timeIntervalSince(started) < 5 {
            try idler.send(Ping())
            let frame = try idler.receive()
            if frame.type == MessageType.error.rawValue {
                error = try frame.decode(ErrorMessage.self)
                break
            }
            // The pace of a client that keeps talking, not a wait for anything: no event is due.
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(error?.code == .timeout)
        #expect(error?.message == "not logged in within 1 s")
        MalformedFrameTests.expectClosed(idler)
        // A connection that logs in in time is not affected: still served once a connection
        // opened after it has been closed for not logging in (its login deadline came later).
        let student = try server.registeredSession("student")
        let witness = try server.connection()
        let closed = try witness.receive().decode(ErrorMessage.self)
        #expect(closed.code == .timeout && closed.message == "not logged in within 1 s")
        #expect(try !student.feeds().isEmpty)
        #expect(student.reconnections == 0, "on the connection it logged in on")
    }

    @Test func aUserWithTooManyConnectionsLosesTheOldest() throws {
        let server = try TestServer { $0.maxConnectionsPerUser = 3 }
        let first = try server.connection()
        let identity = try ServerConnection.expect(
            try first.roundTrip(Register(username: "hoarder", password: "long enough pw", classCode: "")), as: Authenticated.self)
        let others = try (0..<3).map { _ in try SessionRevocationTests.resumed(server, identity.token) }
        let closed = try first.receive().decode(ErrorMessage.self)
        #expect(closed.code == .tooManyConnections)
        #expect(closed.message.contains("hoarder has more than 3 connections"))
        for other in others { #expect(try other.roundTrip(WhoAmI()).type == MessageType.authenticated.rawValue) }
    }
}
