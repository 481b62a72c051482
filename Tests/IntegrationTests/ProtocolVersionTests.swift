import Client
import Crypto
import Foundation
import Server
import TLS
import TestSupport
import Testing
import Wire

/// Protocol versions against a real server: a client of version 1, written from the appendix of
/// docs/PROTOCOL.md and not from today's codec, does everything version 1 could; ranges that do
/// not meet are refused saying which side to upgrade; a newer client on an older server does not
/// send what that server's version lacks.
@Suite("Protocol versions")
struct ProtocolVersionTests {
    // MARK: A version-1 client, by hand

    /// Version-1 payloads written and read by hand, field by field as Appendix A and sections 2
    /// to 5 lay them out.
    enum Version1 {
        static func u16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
        static func u32(_ value: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8(value >> (8 * UInt32($0)) & 0xFF) } }
        static func u64(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }
        static func string(_ text: String) -> [UInt8] { u16(UInt16(text.utf8.count)) + Array(text.utf8) }
        static func bytes(_ value: [UInt8]) -> [UInt8] { u32(UInt32(value.count)) + value }
        static func frame(type: UInt16, id: UInt32, _ payload: [UInt8]) -> [UInt8] {
            u32(UInt32(payload.count)) + u16(type) + u16(0) + u32(id) + payload
        }

        static let magic: [UInt8] = [0x89, 0x53, 0x4E, 0x41, 0x50, 0x0D, 0x0A, 0x1A]
        static func hello(_ name: String, min: UInt16 = 1, max: UInt16 = 1) -> [UInt8] { magic + u16(min) + u16(max) + string(name) }
        static func register(_ user: String, _ password: String, _ code: String) -> [UInt8] {
            string(user) + string(password) + string(code)
        }

        /// Reads fields in order and insists the payload ends exactly after the last.
        struct Reader {
            let bytes: [UInt8]
            var at = 0
            mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
                guard at + count <= bytes.count else { throw Failure("needs \(count) bytes at \(at) of \(bytes.count)") }
                defer { at += count }
                return bytes[at..<(at + count)]
            }
            mutating func number(_ count: Int) throws -> UInt64 { try take(count).reduce(0) { $0 << 8 | UInt64($1) } }
            mutating func string() throws -> String { String(decoding: try take(Int(try number(2))), as: UTF8.self) }
            mutating func end() throws { guard at == bytes.count else { throw Failure("\(bytes.count - at) bytes left over") } }
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ text: String) { description = text }
        }

        /// A version-1 Snap record: no `opened_count`.
        struct Snap: Equatable {
            var id: UInt64, feed: String, poster: String, state: UInt8, byteCount: UInt32, width: UInt32, height: UInt32
        }

        static func snap(_ r: inout Reader) throws -> Snap {
            let id = try r.number(8)
            let feed = try r.string()
            let poster = try r.string()
            _ = try r.number(8)
            _ = try r.number(8)
            let state = UInt8(try r.number(1))
            _ = try r.number(1)
            return Snap(
                id: id, feed: feed, poster: poster, state: state, byteCount: UInt32(try r.number(4)),
                width: UInt32(try r.number(4)), height: UInt32(try r.number(4)))
        }

        static func snaps(_ payload: [UInt8]) throws -> (version: UInt64, snaps: [Snap]) {
            var r = Reader(bytes: payload)
            let version = try r.number(8)
            let snaps = try (0..<Int(try r.number(4))).map { _ in try snap(&r) }
            try r.end()
            return (version, snaps)
        }
    }

    /// One version-1 connection: frames built by `Version1`, sent and read as raw bytes.
    final class Version1Client {
        let connection: ServerConnection
        private var nextID: UInt32 = 1

        init(_ server: TestServer, hello: [UInt8] = Version1.hello("version-1 client")) throws {
            connection = try ServerConnection(
                host: "127.0.0.1", port: server.port, context: try TLSContext.client(trustRootsFile: server.caPath),
                timeout: 10)
            let welcome = try request(0x0001, hello)
            guard welcome.type == 0x0002 else { throw Version1.Failure("no Welcome: type \(welcome.type)") }
            var r = Version1.Reader(bytes: welcome.payload)
            self.welcomeVersion = UInt16(try r.number(2))
        }

        private(set) var welcomeVersion: UInt16 = 0

        /// Sends one request and returns its reply (an Error included).
        func request(_ type: UInt16, _ payload: [UInt8]) throws -> (type: UInt16, payload: [UInt8]) {
            let id = nextID
            nextID += 1
            try connection.sendRaw(Version1.frame(type: type, id: id, payload))
            while true {
                let frame = try connection.receive()
                if frame.requestID == id || frame.type == 0x0003 { return (frame.type, frame.payload) }
            }
        }

        /// The code and fatal flag of an Error reply.
        static func error(_ reply: (type: UInt16, payload: [UInt8])) throws -> (code: UInt16, fatal: Bool, message: String) {
            guard reply.type == 0x0003 else { throw Version1.Failure("expected an Error, got type \(reply.type)") }
            var r = Version1.Reader(bytes: reply.payload)
            let result = (UInt16(try r.number(2)), try r.number(1) == 1, try r.string())
            try r.end()
            return result
        }

        func register(_ name: String, classCode: String) throws {
            let reply = try request(0x0010, Version1.register(name, "version one password", classCode))
            guard reply.type == 0x0013 else { throw Version1.Failure("Register: \(try Self.error(reply))") }
        }
    }

    static var document: String {
        (try? String(contentsOf: TestImages.repository.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
    }

    static func vector(_ name: String) throws -> [UInt8] {
        let marker = "<!-- vector: \(name) -->\n```hex\n"
        let text = document
        guard let start = text.range(of: marker), let end = text.range(of: "```", range: start.upperBound..<text.endIndex) else {
            throw Version1.Failure("vector \(name) missing")
        }
        return text[start.upperBound..<end.lowerBound].split(whereSeparator: \.isWhitespace).map { UInt8($0, radix: 16)! }
    }

    @Test("the hand-written version-1 frames are the appendix's vectors, byte for byte")
    func handWrittenFramesMatchTheVectors() throws {
        #expect(Version1.frame(type: 0x0001, id: 1, Version1.hello("demo")) == (try Self.vector("v1-hello")))
        #expect(Version1.frame(type: 0x0010, id: 2, Version1.register("ada", "correct horse", "CS193")) == (try Self.vector("register")))
        #expect(
            Version1.frame(type: 0x0026, id: 8, Version1.string("Random") + Version1.bytes([0x89, 0x50, 0x4E, 0x47]))
                == (try Self.vector("post-snap")))
        let snaps = try Self.vector("v1-snaps")
        let read = try Version1.snaps(Array(snaps.dropFirst(12)))
        #expect(
            read.version == 42
                && read.snaps == [
                    Version1.Snap(
                        id: 7, feed: "Memes", poster: "bob", state: 0, byteCount: 115_471,
                        width: 256, height: 256)
                ])
    }

    @Test("a version-1 client registers, posts, lists, polls and opens once, and is refused a second open")
    func version1ClientDoesEverythingVersion1Could() throws {
        let server = try TestServer()
        let code = server.configuration.classCode ?? ""
        let poster = try Version1Client(server)
        #expect(poster.welcomeVersion == 1)
        try poster.register("poster1", classCode: code)
        let image = TestImages.sample(2)
        let posted = try poster.request(0x0026, Version1.string("Memes") + Version1.bytes(image))
        try #require(posted.type == 0x0027, "PostSnap: \(try? Version1Client.error(posted))")
        var reader = Version1.Reader(bytes: posted.payload)
        let snap = try Version1.snap(&reader)
        try reader.end()
        #expect(snap.state == 2 && snap.feed == "Memes" && snap.poster == "poster1" && snap.byteCount == UInt32(image.count))

        let viewer = try Version1Client(server)
        try viewer.register("viewer1", classCode: code)
        let listed = try viewer.request(0x0022, Version1.string(""))
        try #require(listed.type == 0x0023)
        let listing = try Version1.snaps(listed.payload)
        #expect(listing.snaps.first { $0.id == snap.id }?.state == 0, "unread for the viewer")
        let polled = try viewer.request(0x0024, Version1.u64(listing.version))
        try #require(polled.type == 0x0025 && polled.payload.count == 9)
        #expect(polled.payload.last == 0, "nothing changed since the listing")

        let opened = try viewer.request(0x0028, Version1.u64(snap.id))
        try #require(opened.type == 0x0029, "OpenSnap: \(try? Version1Client.error(opened))")
        reader = Version1.Reader(bytes: opened.payload)
        let openedSnap = try Version1.snap(&reader)
        let sha256 = Array(try reader.take(32))
        let bytes = Array(try reader.take(Int(try reader.number(4))))
        try reader.end()
        #expect(openedSnap.id == snap.id && openedSnap.state == 1)
        #expect(bytes == image && SHA256.hash(bytes) == sha256, "the picture arrives whole and checks out")

        let again = try Version1Client.error(try viewer.request(0x0028, Version1.u64(snap.id)))
        #expect(again.code == ErrorCode.alreadyViewed.rawValue && !again.fatal)
        let relisted = try Version1.snaps(try viewer.request(0x0022, Version1.string("Memes")).payload)
        #expect(relisted.snaps.first { $0.id == snap.id }?.state == 1, "read now")

        // Today's client on the same server sees version 2's record: one person opened it.
        let (session, _) = try server.session()
        _ = try session.login(username: "poster1", password: "version one password")
        #expect(try session.snaps(feed: "Memes").snaps.first { $0.id == snap.id }?.openedCount == 1)
    }

    @Test("a request version 1 does not have is an unknown type on a version-1 connection, as version 1 defines")
    func version2RequestsAreUnknownInVersion1() throws {
        let server = try TestServer()
        let client = try Version1Client(server)
        try client.register("lonely1", classCode: server.configuration.classCode ?? "")
        let refused = try Version1Client.error(
            try client.request(
                MessageType.changePassword.rawValue,
                Version1.string("version one password") + Version1.string("another password")))
        #expect(refused.code == ErrorCode.unknownMessageType.rawValue && refused.fatal)
        #expect(throws: (any Error).self) { _ = try client.request(0x0004, []) }
    }

    // MARK: Ranges that do not meet

    /// The fatal Error a Hello gets.
    static func refusal(_ server: TestServer, hello: [UInt8]) throws -> (code: UInt16, fatal: Bool, message: String) {
        let connection = try ServerConnection(
            host: "127.0.0.1", port: server.port, context: try TLSContext.client(trustRootsFile: server.caPath),
            timeout: 10)
        try connection.sendRaw(Version1.frame(type: 0x0001, id: 1, hello))
        let frame = try connection.receive()
        return try Version1Client.error((frame.type, frame.payload))
    }

    @Test("a client newer than the server is refused with the versions served and what to do")
    func newerClientIsRefused() throws {
        let server = try TestServer()
        let next = ProtocolConstants.current + 1
        let refused = try Self.refusal(server, hello: Version1.hello("future", min: next, max: next + 1))
        #expect(refused.code == ErrorCode.unsupportedVersion.rawValue && refused.fatal)
        #expect(
            refused.message.contains("versions 1-\(ProtocolConstants.current)") && refused.message.contains("\(next)-\(next + 1)")
                && refused.message.contains("upgrade snapshare-server"), "\(refused.message)")
        let backwards = try Self.refusal(server, hello: Version1.hello("backwards", min: 2, max: 1))
        #expect(backwards.code == ErrorCode.unsupportedVersion.rawValue, "\(backwards.message)")
    }

    @Test("a server that stopped serving version 1 refuses a version-1 client, naming the release to install")
    func olderClientIsRefused() throws {
        let server = try TestServer { $0.protocolVersions = 2...2 }
        let refused = try Self.refusal(server, hello: try Array(Self.vector("v1-hello").dropFirst(12)))
        #expect(refused.code == ErrorCode.unsupportedVersion.rawValue && refused.fatal)
        #expect(
            refused.message.contains("speaks protocol version 2") && refused.message.contains("upgrade snapshare (version 1.0 or newer)"),
            "\(refused.message)")
        let today = try server.registeredSession("modern")
        #expect(try today.snaps(feed: nil).snaps.isEmpty, "today's client still gets in")
    }

    @Test("today's client on a server that speaks only version 1 works in version 1, and says so for what version 1 lacks (exit 9)")
    func newerClientOnOlderServer() throws {
        let server = try TestServer { $0.protocolVersions = 1...1 }
        let home = TemporaryDirectory("snapshare-cli-home")
        let environment = ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        func run(_ arguments: [String], stdin: String? = nil) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
        }
        #expect(
            try run(
                ["register", "oldtimer", "--password-stdin"] + (server.configuration.classCode.map { ["--class-code", $0] } ?? []),
                stdin: "old timer password\n"
            ).status == 0)
        #expect(try run(["post", "--feed", "Memes", "--sample", "1"]).status == 0)
        let feed = try run(["feed", "Memes", "--json"])
        #expect(feed.status == 0 && feed.stdout.contains("\"poster\":\"oldtimer\""), "\(feed.stderr)")
        #expect(feed.stdout.contains("\"opened\":null"), "version 1 has no count of opens: unknown, not 0: \(feed.stdout)")
        let passwd = try run(["passwd", "--password-stdin"], stdin: "old timer password\na brand new password\n")
        #expect(passwd.status == 9, "\(passwd.stderr)")
        #expect(passwd.stderr.contains("protocol version 1") && passwd.stderr.contains("ChangePassword"), "\(passwd.stderr)")
    }
}
