import Foundation
import Testing

@testable import Crypto
@testable import TLS

@Suite("TLS engine over memory buffers")
struct TLSEngineTests {
    @Test("a client and a server complete a TLS 1.3 handshake in memory")
    func handshakeCompletesWithTLS13() throws {
        try TLSTestHarness.withPair(connected: false) { client, server, certificates in

            #expect(try client.handshake() == .needsMoreData)
            try TLSTestHarness.connect(client: client, server: server)

            #expect(client.isHandshakeComplete && server.isHandshakeComplete)
            #expect(client.negotiatedProtocol == "TLSv1.3")
            #expect(server.negotiatedProtocol == "TLSv1.3")
            #expect(client.cipherSuite.hasPrefix("TLS_"))
            #expect(client.cipherSuite == server.cipherSuite)
            #expect(client.peerCertificateSHA256 == certificates.fingerprint)
            #expect(server.peerCertificateSHA256 == nil)
        }
    }

    @Test("application data moves both ways after the handshake")
    func applicationDataMovesBothWays() throws {
        try TLSTestHarness.withPair { client, server, _ in

            try client.writePlaintext(Array("hello server".utf8))
            TLSTestHarness.transfer(from: client, to: server)
            #expect(try TLSTestHarness.read(server, count: 12) == Array("hello server".utf8))

            try server.writePlaintext(Array("hello client".utf8))
            TLSTestHarness.transfer(from: server, to: client)
            #expect(try TLSTestHarness.read(client, count: 12) == Array("hello client".utf8))

            var nothing: [UInt8] = []
            #expect(try client.readPlaintext(into: &nothing, maxBytes: 100) == .needsMoreData)
            #expect(nothing.isEmpty)
        }
    }

    @Test("a one-mebibyte payload crosses intact in both directions")
    func largePayloadCrossesIntact() throws {
        try TLSTestHarness.withPair { client, server, _ in
            let payload = SecureRandom.bytes(1 << 20)

            try client.writePlaintext(payload)
            #expect(client.pendingNetworkBytes > payload.count)
            TLSTestHarness.transfer(from: client, to: server)
            let atServer = try TLSTestHarness.read(server, count: payload.count)
            #expect(atServer == payload)

            try server.writePlaintext(atServer)
            TLSTestHarness.transfer(from: server, to: client)
            #expect(try TLSTestHarness.read(client, count: payload.count, maxBytesPerCall: 10_000) == payload)
        }
    }

    @Test("a read capped by maxBytes reports that plaintext is still buffered")
    func cappedReadLeavesBufferedPlaintext() throws {
        try TLSTestHarness.withPair { client, server, _ in
            try client.writePlaintext(Array(repeating: 7, count: 3000))
            TLSTestHarness.transfer(from: client, to: server)

            var received: [UInt8] = []
            #expect(try server.readPlaintext(into: &received, maxBytes: 1000) == .bytes(1000))
            #expect(server.hasBufferedPlaintext)
            while server.hasBufferedPlaintext {
                _ = try server.readPlaintext(into: &received, maxBytes: 1000)
            }
            #expect(received.count == 3000)
            #expect(try server.readPlaintext(into: &received, maxBytes: 1000) == .needsMoreData)
            #expect(!server.hasBufferedPlaintext)
        }
    }

    @Test("a partial record yields nothing until the rest arrives")
    func partialRecordWaitsForTheRest() throws {
        try TLSTestHarness.withPair { client, server, _ in
            try client.writePlaintext(Array("split across reads".utf8))
            let ciphertext = client.takeNetworkBytes()

            var received: [UInt8] = []
            server.receiveFromNetwork(Array(ciphertext.prefix(10)))
            #expect(try server.readPlaintext(into: &received, maxBytes: 100) == .needsMoreData)
            #expect(!server.hasBufferedPlaintext)
            server.receiveFromNetwork(Array(ciphertext.dropFirst(10)))
            #expect(try server.readPlaintext(into: &received, maxBytes: 100) == .bytes(18))
            #expect(received == Array("split across reads".utf8))
        }
    }

    @Test("close sends close_notify and the peer's read returns closed")
    func closeDeliversCloseNotify() throws {
        try TLSTestHarness.withPair { client, server, _ in

            try client.writePlaintext(Array("last words".utf8))
            client.close()
            client.close()
            TLSTestHarness.transfer(from: client, to: server)

            var received: [UInt8] = []
            #expect(try server.readPlaintext(into: &received, maxBytes: 100) == .bytes(10))
            #expect(try server.readPlaintext(into: &received, maxBytes: 100) == .closed)
            #expect(try server.readPlaintext(into: &received, maxBytes: 100) == .closed)
            #expect(received == Array("last words".utf8))

            let error = #expect(throws: TLSError.self) { try client.writePlaintext(Array("more".utf8)) }
            #expect(error?.kind == .closed)
        }
    }

    @Test("the network closing without close_notify is an unexpected end of file")
    func networkCloseWithoutCloseNotifyIsUnexpected() throws {
        try TLSTestHarness.withPair { client, server, _ in
            try client.writePlaintext(Array("cut".utf8))
            TLSTestHarness.transfer(from: client, to: server)
            server.networkClosed()

            var received: [UInt8] = []
            #expect(try server.readPlaintext(into: &received, maxBytes: 100) == .bytes(3))
            let error = #expect(throws: TLSError.self) { try server.readPlaintext(into: &received, maxBytes: 100) }
            #expect(error?.kind == .unexpectedEOF)
        }
    }

    @Test("the network closing during the handshake fails the handshake")
    func networkCloseDuringHandshakeFails() throws {
        try TLSTestHarness.withPair(connected: false) { _, server, _ in
            let first = try server.handshake()
            #expect(first == .needsMoreData)
            server.networkClosed()
            let error = #expect(throws: TLSError.self) { try server.handshake() }
            #expect(error?.kind == .unexpectedEOF)
        }
    }

    /// Bytes that are not a TLS ClientHello, named so test output stays readable.
    struct Garbage: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { name }

        static let all = [
            Garbage(name: "an HTTP request", bytes: Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)),
            Garbage(name: "512 zero bytes", bytes: [UInt8](repeating: 0, count: 512)),
            Garbage(
                name: "a one-byte ClientHello", bytes: [0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0xff]),
            Garbage(
                name: "an oversized record",
                bytes: [0x16, 0x03, 0x03, 0xff, 0xff] + [UInt8](repeating: 0x41, count: 300)),
        ]
    }

    @Test("garbage bytes give the server a handshake error, not a crash", arguments: Garbage.all)
    func garbageFailsTheHandshake(garbage: Garbage) throws {
        try TLSTestHarness.withPair(connected: false) { _, server, _ in
            server.receiveFromNetwork(garbage.bytes)
            let error = #expect(throws: TLSError.self) { try server.handshake() }
            #expect(error?.kind == .handshakeFailed)
            #expect(error?.openSSLErrors.isEmpty == false)
            let again = #expect(throws: TLSError.self) { try server.handshake() }
            #expect(again?.kind == .handshakeFailed)
        }
    }

    @Test("random bytes never crash the server engine")
    func randomBytesNeverCrash() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let context = try TLSContext.server(
                certificateChainFile: certificates.serverCertificatePath, privateKeyFile: certificates.serverKeyPath)
            for round in 0..<200 {
                let server = try TLSEngine(context: context, role: .server)
                var bytes = SecureRandom.bytes(Int(SecureRandom.bytes(1)[0]) + 1)
                if round % 2 == 0 { bytes[0] = 0x16 } // look like a handshake record to get deeper
                server.receiveFromNetwork(bytes)
                _ = try? server.handshake()
                _ = server.takeNetworkBytes()
            }
        }
    }

    @Test("plaintext calls before the handshake completes are refused")
    func plaintextBeforeHandshakeIsRefused() throws {
        try TLSTestHarness.withPair(connected: false) { client, _, _ in
            var buffer: [UInt8] = []
            let readError = #expect(throws: TLSError.self) { try client.readPlaintext(into: &buffer, maxBytes: 10) }
            #expect(readError?.kind == .internal)
            let writeError = #expect(throws: TLSError.self) { try client.writePlaintext([1, 2, 3]) }
            #expect(writeError?.kind == .internal)
            client.close()
            #expect(client.pendingNetworkBytes == 0)
        }
    }

    @Test("network bytes can be taken in bounded slices")
    func networkBytesComeOutInSlices() throws {
        try TLSTestHarness.withPair(connected: false) { client, _, _ in
            _ = try client.handshake()
            let pending = client.pendingNetworkBytes
            #expect(pending > 100)
            var slice: [UInt8] = [9]
            #expect(client.takeNetworkBytes(into: &slice, maxBytes: 100) == 100)
            #expect(slice.count == 101 && slice[0] == 9)
            #expect(client.pendingNetworkBytes == pending - 100)
            #expect(client.takeNetworkBytes().count == pending - 100)
            #expect(client.takeNetworkBytes(into: &slice, maxBytes: 100) == 0)
        }
    }
}
