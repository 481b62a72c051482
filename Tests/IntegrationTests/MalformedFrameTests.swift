import Client
import Foundation
import Shared
import Testing
import TestSupport

/// Hostile and broken input, in the spirit of mosquitto's 13-malformed tests: each gets the
/// documented error, and the server keeps serving everyone else.
@Suite struct MalformedFrameTests {
    static func raw(_ server: TestServer) throws -> ServerConnection {
        try ServerConnection(host: "127.0.0.1", port: server.port, context: TLSContext.client(trustRootsFile: server.caPath), timeout: 10)
    }

    static func header(length: UInt32, type: UInt16, flags: UInt16 = 0, requestID: UInt32 = 1) -> [UInt8] {
        var w = ByteWriter()
        FrameHeader(length: length, type: type, flags: flags, requestID: requestID).encode(into: &w)
        return w.bytes
    }

    /// Sends `bytes`, expects a fatal Error frame with `code`, then the connection to close.
    static func expectFatal(_ server: TestServer, _ code: ErrorCode, afterHello: Bool = false, login: Bool = false,
                            _ bytes: [UInt8]) throws {
        let connection = try raw(server)
        if afterHello || login { _ = try connection.hello() }
        if login {
            let reply = try connection.roundTrip(Register(username: "u\(UInt32.random(in: 0...UInt32.max))", password: "long enough pw", classCode: ""))
            _ = try ServerConnection.expect(reply, as: Authenticated.self)
        }
        try connection.sendRaw(bytes)
        var frame = try connection.receive()
        while frame.type != MessageType.error.rawValue { frame = try connection.receive() }
        let error = try frame.decode(ErrorMessage.self)
        #expect(error.code == code, "\(error.message)")
        #expect(error.fatal)
        #expect(throws: ClientError.self) { _ = try connection.receive() }
        try expectServerStillServes(server)
    }

    static func expectServerStillServes(_ server: TestServer) throws {
        let probe = try raw(server)
        _ = try probe.hello()
        #expect(try probe.roundTrip(Ping()).type == MessageType.pong.rawValue)
    }

    @Test func aHelloWithBadMagicIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .badMagic, Frame(Hello(magic: Array("SNAPSHAR".utf8), clientName: "x"), requestID: 1).encoded())
    }

    @Test func aFirstFrameOtherThanHelloIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .helloRequired, Frame(Login(username: "ada", password: "pw"), requestID: 1).encoded())
    }

    @Test func anHTTPRequestOverTLSIsRefusedAtTheHeader() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .frameTooLarge, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
    }

    @Test func anOversizedFrameBeforeHelloIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .frameTooLarge, Self.header(length: 2000, type: MessageType.hello.rawValue))
    }

    @Test func anOversizedFrameBeforeLoginIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .frameTooLarge, afterHello: true, Self.header(length: 100_000, type: MessageType.postSnap.rawValue))
    }

    @Test func anOversizedFrameAfterLoginIsRefused() throws {
        let server = try TestServer()
        let limit = UInt32(server.configuration.maxFrameBytes)
        try Self.expectFatal(server, .frameTooLarge, login: true, Self.header(length: limit + 1, type: MessageType.postSnap.rawValue))
    }

    @Test func aPayloadShorterThanItsFieldsIsMalformed() throws {
        let server = try TestServer()
        // Login whose user name claims 5 bytes but has 2.
        try Self.expectFatal(server, .malformedFrame, afterHello: true, Self.header(length: 4, type: MessageType.login.rawValue) + [0, 5, 0x61, 0x62])
    }

    @Test func trailingBytesInAPayloadAreMalformed() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .malformedFrame, afterHello: true, Self.header(length: 2, type: MessageType.ping.rawValue) + [1, 2])
    }

    @Test func nonZeroFlagsAreMalformed() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .malformedFrame, afterHello: true, Self.header(length: 0, type: MessageType.ping.rawValue, flags: 0x8000))
    }

    @Test func anUnknownMessageTypeIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .unknownMessageType, afterHello: true, Self.header(length: 0, type: 0x7777))
    }

    @Test func aServerMessageSentByAClientIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .unexpectedMessage, afterHello: true, Frame(Welcome(version: 1, serverName: "x", maxFrameBytes: 0,
            maxFrameBytesBeforeLogin: 0, maxRequestsInFlight: 0, maxImageBytes: 0, maxImageDimension: 0, maxImagePixels: 0,
            idleTimeoutSeconds: 0, serverTime: 0), requestID: 3).encoded())
    }

    @Test func garbageAfterAValidFrameIsAnsweredThenRefused() throws {
        let server = try TestServer()
        let connection = try Self.raw(server)
        _ = try connection.hello()
        try connection.sendRaw(Frame(Ping(), requestID: 5).encoded() + [0xDE, 0xAD, 0xBE, 0xEF, 0x00, 0x04, 0x00, 0x00, 0, 0, 0, 0])
        #expect(try connection.receive() == Frame(Pong(), requestID: 5))
        let error = try connection.receive().decode(ErrorMessage.self)
        #expect(error.code == .frameTooLarge)
        #expect(throws: ClientError.self) { _ = try connection.receive() }
        try Self.expectServerStillServes(server)
    }

    @Test func aTruncatedFrameTimesOut() throws {
        let server = try TestServer { $0.frameTimeoutMilliseconds = 400 }
        try Self.expectFatal(server, .timeout, afterHello: true, Self.header(length: 100, type: MessageType.login.rawValue) + [0, 3])
    }

    @Test func requestsBeforeLoginNeedAuthenticationButKeepTheConnection() throws {
        let server = try TestServer()
        let connection = try Self.raw(server)
        _ = try connection.hello()
        let error = try connection.roundTrip(ListFeeds()).decode(ErrorMessage.self)
        #expect(error.code == .authRequired)
        #expect(!error.fatal)
        #expect(try connection.roundTrip(Ping()).type == MessageType.pong.rawValue)
    }

    @Test func tooManyRequestsInFlightIsRefused() throws {
        let server = try TestServer { $0.maxRequestsInFlight = 2 }
        let session = try server.registeredSession("piper")
        var burst: [UInt8] = []
        for id in 100..<105 { burst += Frame(ListFeeds(), requestID: UInt32(id)).encoded() }
        try session.connection.sendRaw(burst)
        var codes: [ErrorCode] = []
        while let frame = try? session.connection.receive() {
            if frame.type == MessageType.error.rawValue { codes.append(try frame.decode(ErrorMessage.self).code) }
        }
        #expect(codes == [.tooManyInFlight])
        try Self.expectServerStillServes(server)
    }

    @Test func anIdleConnectionIsClosedWithTimeout() throws {
        let server = try TestServer { $0.idleTimeoutMilliseconds = 1000 }
        let connection = try Self.raw(server)
        _ = try connection.hello()
        Thread.sleep(forTimeInterval: 1.6)
        let frame = try connection.receive()
        let error = try frame.decode(ErrorMessage.self)
        #expect(error.code == .timeout)
        #expect(frame.requestID == 0)
    }
}
