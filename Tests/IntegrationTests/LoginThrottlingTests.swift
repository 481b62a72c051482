import Client
import Foundation
import TestSupport
import Testing
import Wire

/// Password and class-code guessing against a real server over TLS, with parallel connections
/// and a second source address (127.0.0.2) standing in for another machine.
@Suite struct LoginThrottlingTests {
    /// Sends one Login on each of `connections` before reading any answer, then reads them all.
    static func loginAtOnce(_ connections: [ServerConnection], username: String, password: String) throws -> [ErrorCode?] {
        for connection in connections { try connection.send(Login(username: username, password: password)) }
        return try connections.map { connection in
            let frame = try connection.receive()
            return frame.type == MessageType.error.rawValue ? try frame.decode(ErrorMessage.self).code : nil
        }
    }

    static func login(_ server: TestServer, _ username: String, _ password: String, from source: String? = nil) throws -> Frame {
        try server.connection(from: source, timeout: 60).roundTrip(Login(username: username, password: password))
    }

    @Test func parallelWrongPasswordsGetNoMoreGuessesThanTheLimit() throws {
        let server = try TestServer()
        _ = try server.registeredSession("bob", password: "the real password")
        let connections = try (0..<60).map { _ in try server.connection() }
        let answers = try Self.loginAtOnce(connections, username: "bob", password: "guess guess")
        #expect(answers.filter { $0 == .badCredentials }.count == 5, "only five passwords may be checked")
        #expect(answers.filter { $0 == .rateLimited }.count == 55)
    }

    @Test func aClassmateCannotLockSomeoneOut() throws {
        let log = LogCapture()
        let server = try TestServer(log: log)
        _ = try server.registeredSession("bob", password: "the real password")
        for _ in 0..<5 {
            let reply = try Self.login(server, "bob", "mallory guesses")
            #expect(try reply.decode(ErrorMessage.self).code == .badCredentials)
        }
        let fromMallory = try Self.login(server, "bob", "the real password").decode(ErrorMessage.self)
        #expect(fromMallory.code == .rateLimited)
        #expect(fromMallory.message.contains("from your address"), "\(fromMallory.message)")
        let started = Date()
        let fromBob = try Self.login(server, "bob", "the real password", from: "127.0.0.2")
        #expect(fromBob.type == MessageType.authenticated.rawValue, "bob's own machine is not locked out")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!log.lines(containing: "from 127.0.0.1 refused").isEmpty, "each refusal is logged with name and address")
        #expect(!log.lines(containing: "failed login for bob from 127.0.0.1").isEmpty)
        #expect(
            log.lines(containing: "mallory guesses").isEmpty && log.lines(containing: "the real password").isEmpty,
            "passwords are never logged")
    }

    @Test func anAdminUnlocksAThrottledName() throws {
        let server = try TestServer()
        _ = try server.registeredSession("bob", password: "the real password")
        let admin = try server.makeAdmin("teacher")
        for _ in 0..<5 { _ = try Self.login(server, "bob", "wrong wrong") }
        #expect(try Self.login(server, "bob", "the real password").decode(ErrorMessage.self).code == .rateLimited)
        #expect(try admin.unlock("BOB") == 2, "the name's budget and its address's budget held failures")
        #expect(try Self.login(server, "bob", "the real password").type == MessageType.authenticated.rawValue)
        #expect(try admin.unlock("bob") == 0)
    }

    @Test func wrongClassCodesThrottleOnlyTheirAddress() throws {
        let server = try TestServer { $0.classCode = "CS193P" }
        let guesser = try server.connection()
        for index in 0..<server.configuration.classCodeThrottle.perAddress {
            let reply = try guesser.roundTrip(Register(username: "guess\(index)", password: "long enough pw", classCode: "CS\(index)"))
            #expect(try reply.decode(ErrorMessage.self).code == .badClassCode)
        }
        let refused = try guesser.roundTrip(Register(username: "guess10", password: "long enough pw", classCode: "CS193P"))
        #expect(try refused.decode(ErrorMessage.self).code == .rateLimited)
        let student = try server.connection(from: "127.0.0.2")
        let welcome = try student.roundTrip(Register(username: "student", password: "long enough pw", classCode: "CS193P"))
        #expect(welcome.type == MessageType.authenticated.rawValue, "the rest of the class can still register")
    }
}
