import Client
import Foundation
import TLS
import TestSupport
import Testing
import Wire

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
    static func expectFatal(
        _ server: TestServer, _ code: ErrorCode, afterHello: Bool = false, login: Bool = false,
        _ bytes: [UInt8]
    ) throws {
        let connection = try raw(server)
        if afterHello || login { _ = try connection.hello() }
        if login {
            let reply = try connection.roundTrip(
                Register(username: "u\(UInt32.random(in: 0...UInt32.max))", password: "long enough pw", classCode: ""))
            _ = try ServerConnection.expect(reply, as: Authenticated.self)
        }
        try connection.sendRaw(bytes)
        var frame = try connection.receive()
        while frame.type != MessageType.error.rawValue { frame = try connection.receive() }
        let error = try frame.decode(ErrorMessage.self)
        #expect(error.code == code, "\(error.message)")
        #expect(error.fatal)
        expectClosed(connection)
        try expectServerStillServes(server)
    }

    /// The server really closed the connection after a fatal error: a Ping gets no Pong, and
    /// reading ends with the server's close, not with our read timeout.
    static func expectClosed(_ connection: ServerConnection, sourceLocation: SourceLocation = #_sourceLocation) {
        _ = try? connection.send(Ping())
        do {
            while true {
                let frame = try connection.receive()
                Issue.record(
                    "the connection stayed open: got frame type 0x\(String(frame.type, radix: 16))", sourceLocation: sourceLocation)
            }
        } catch {
            #expect(error.message.contains("closed"), "expected the server to close; got: \(error.message)", sourceLocation: sourceLocation)
        }
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
        try Self.expectFatal(
            server, .malformedFrame, afterHello: true, Self.header(length: 4, type: MessageType.login.rawValue) + [0, 5, 0x61, 0x62])
    }

    @Test func trailingBytesInAPayloadAreMalformed() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .malformedFrame, afterHello: true, Self.header(length: 2, type: MessageType.ping.rawValue) + [1, 2])
    }

    @Test func nonZeroFlagsAreMalformed() throws {
        let server = try TestServer()
        try Self.expectFatal(
            server, .malformedFrame, afterHello: true, Self.header(length: 0, type: MessageType.ping.rawValue, flags: 0x8000))
    }

    @Test func anUnknownMessageTypeIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(server, .unknownMessageType, afterHello: true, Self.header(length: 0, type: 0x7777))
    }

    @Test func aServerMessageSentByAClientIsRefused() throws {
        let server = try TestServer()
        try Self.expectFatal(
            server, .unexpectedMessage, afterHello: true,
            Frame(
                Welcome(
                    version: 1, serverName: "x", maxFrameBytes: 0,
                    maxFrameBytesBeforeLogin: 0, maxRequestsInFlight: 0, maxImageBytes: 0, maxImageDimension: 0, maxImagePixels: 0,
                    idleTimeoutSeconds: 0, serverTime: 0), requestID: 3
            ).encoded())
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

    /// Payloads that break the message encoding, each sent after Hello; every one must end
    /// the connection (Error, close_notify, close), whichever thread decoded it.
    static let malformedPayloads: [(String, [UInt8])] = {
        func frame(_ type: MessageType, _ payload: [UInt8]) -> [UInt8] {
            header(length: UInt32(payload.count), type: type.rawValue, requestID: 7) + payload
        }
        func string(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes }
        let password = string(Array("long enough pw".utf8))
        let nan: [UInt8] = [0x7F, 0xF8, 0, 0, 0, 0, 0, 0]
        let infinity: [UInt8] = [0x7F, 0xF0, 0, 0, 0, 0, 0, 0]
        return [
            ("invalid UTF-8 in a user name", frame(.login, string([0x61, 0xFF, 0xFE]) + password)),
            ("a payload shorter than its fields", frame(.login, string(Array("ada".utf8)))),
            ("trailing bytes after the fields", frame(.login, string(Array("ada".utf8)) + password + [0])),
            ("a length past the end of the payload", frame(.login, [0x00, 0x40, 0x61])),
            ("a string over its limit", frame(.login, string(Array(repeating: 0x61, count: 65)) + password)),
            ("a bool that is 2", frame(.adminResetFeeds, [2] + string([]))),
            ("an unknown variant", frame(.getPhoto, [0, 0, 0, 0, 0, 0, 0, 1, 7])),
            ("a NaN", frame(.addPin, nan + nan)),
            ("an infinity", frame(.addPin, [0, 0, 0, 0, 0, 0, 0, 0] + infinity)),
            ("an empty-payload message with a payload", frame(.listFeeds, [1])),
        ]
    }()

    @Test(arguments: malformedPayloads.map(\.0))
    func aMalformedPayloadEndsTheConnection(_ name: String) throws {
        let server = try TestServer()
        let bytes = try #require(Self.malformedPayloads.first { $0.0 == name }?.1)
        let connection = try Self.raw(server)
        _ = try connection.hello()
        try connection.sendRaw(bytes)
        let frame = try connection.receive()
        let error = try frame.decode(ErrorMessage.self)
        #expect(error.code == .malformedFrame, "\(error.message)")
        #expect(error.fatal)
        #expect(frame.requestID == 7, "a fatal error answers the frame that caused it")
        Self.expectClosed(connection)
        try Self.expectServerStillServes(server)
    }

    @Test func aMalformedPayloadAfterLoginEndsTheConnectionToo() throws {
        let server = try TestServer()
        let session = try server.registeredSession("mallory")
        try session.connection.sendRaw(
            Self.header(length: 16, type: MessageType.addPin.rawValue, requestID: 9)
                + [0x7F, 0xF8, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 0])
        let frame = try session.connection.receive()
        #expect(try frame.decode(ErrorMessage.self).code == .malformedFrame)
        Self.expectClosed(session.connection)
    }

    @Test func aFrameRefusedAtItsHeaderIsAnsweredWithItsOwnRequestID() throws {
        let server = try TestServer()
        let connection = try Self.raw(server)
        _ = try connection.hello()
        try connection.sendRaw(Self.header(length: 100_000, type: MessageType.postSnap.rawValue, requestID: 42))
        let frame = try connection.receive()
        #expect(try frame.decode(ErrorMessage.self).code == .frameTooLarge)
        #expect(frame.requestID == 42)
        Self.expectClosed(connection)
    }

    @Test func aFrameTimeoutAnswersTheFrameThatDidNotFinish() throws {
        let server = try TestServer { $0.frameTimeoutMilliseconds = 400 }
        let connection = try Self.raw(server)
        _ = try connection.hello()
        try connection.sendRaw(Self.header(length: 100, type: MessageType.login.rawValue, requestID: 31) + [0, 3])
        let frame = try connection.receive()
        #expect(try frame.decode(ErrorMessage.self).code == .timeout)
        #expect(frame.requestID == 31)
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
        for id in 100..<105 { burst += Frame(WhoAmI(), requestID: UInt32(id)).encoded() }
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
        // Waiting for the reply sends nothing: the connection is idle until the server closes it.
        let frame = try connection.receive()
        let error = try frame.decode(ErrorMessage.self)
        #expect(error.code == .timeout)
        #expect(frame.requestID == 0)
    }
}
