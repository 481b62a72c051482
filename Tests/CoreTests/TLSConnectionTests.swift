import Foundation
import Posix
import Testing

@testable import TLS

#if canImport(Glibc)
    import Glibc
#endif

/// The interest each descriptor was last given, as an event loop would apply it to epoll.
final class RecordedInterest: InterestRegistry {
    private(set) var interest: [Int32: (read: Bool, write: Bool)] = [:]
    private(set) var changes = 0

    func setInterest(_ fd: Int32, read: Bool, write: Bool) {
        interest[fd] = (read, write)
        changes += 1
    }

    /// Whether `fd` waits for writability (a descriptor never changed keeps its registration: no).
    func wantsWrite(_ fd: Int32) -> Bool { interest[fd]?.write ?? false }
    /// Whether `fd` waits for readability (registered for reading: yes until told otherwise).
    func wantsRead(_ fd: Int32) -> Bool { interest[fd]?.read ?? true }
}

/// A client and a server `TLSConnection` over a real loopback TCP connection, driven by hand.
final class LoopbackTLSPair {
    let client: TLSConnection
    let server: TLSConnection
    let interest = RecordedInterest()
    /// Plaintext each side has read so far.
    private(set) var receivedByServer: [UInt8] = []
    private(set) var receivedByClient: [UInt8] = []
    private(set) var serverSawCloseNotify = false
    private(set) var clientSawCloseNotify = false

    init(certificates: DevCertificateSet) throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { Syscall.close(listener) }
        let clientFD = try Socket.connect(host: "127.0.0.1", port: Socket.localPort(listener), timeout: 5)
        try Socket.setNonBlocking(clientFD)
        // The connection waits in the listener's queue once the listener is readable.
        var accepted: Int32?
        if try Syscall.waitUntilReadable(listener, timeoutMilliseconds: 5_000), case .processed(let fd) = try Socket.accept(listener) {
            accepted = fd
        }
        let serverFD = try #require(accepted)
        // One scratch for both, as one loop thread shares it between all its connections.
        let scratch = ScratchBuffers()
        let serverContext = try TLSContext.server(
            certificateChainFile: certificates.serverCertificatePath,
            privateKeyFile: certificates.serverKeyPath)
        let clientContext = try TLSContext.client(trustRootsFile: certificates.caCertificatePath)
        server = try TLSConnection(fd: serverFD, context: serverContext, role: .server, scratch: scratch, registry: interest)
        client = try TLSConnection(
            fd: clientFD, context: clientContext, role: .client(serverName: "localhost"),
            scratch: scratch, registry: interest)
    }

    deinit {
        client.close()
        server.close()
    }

    /// Reads, advances and flushes both sides, as their loop would on readiness, until `done`
    /// holds. The deadline only turns connections that stop making progress into a failure.
    func pump(until done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while !done() && Date() < deadline {
            try step(client, isServer: false)
            try step(server, isServer: true)
            if !done() { try waitForReadiness() }
        }
        #expect(done(), "the connections stopped making progress")
    }

    /// Waits, as the loop's epoll would (up to 100 ms), until a side's socket has bytes to read,
    /// or room for the output it waits to write.
    private func waitForReadiness() throws {
        var descriptors = [client, server].filter { !$0.isClosed }.map { side in
            pollfd(fd: side.fd, events: Int16(POLLIN) | (interest.wantsWrite(side.fd) ? Int16(POLLOUT) : 0), revents: 0)
        }
        guard !descriptors.isEmpty else { return }
        _ = try Syscall.poll(&descriptors, timeoutMilliseconds: 100)
    }

    private func step(_ connection: TLSConnection, isServer: Bool) throws {
        guard !connection.isClosed else { return }
        if case .failed(let error) = connection.receive() { throw error }
        if !connection.isHandshakeComplete {
            guard try connection.advanceHandshake() else { return }
        }
        let end = try connection.readPlaintext { bytes in
            if isServer { receivedByServer.append(contentsOf: bytes) } else { receivedByClient.append(contentsOf: bytes) }
        }
        if end == .closed {
            if isServer { serverSawCloseNotify = true } else { clientSawCloseNotify = true }
        }
        if case .failed(let error) = connection.flush() { throw error }
    }

    /// Queues `bytes` on `sender`, one side of the pair, and pumps until the other side has read
    /// as many more; returns everything that side has read.
    func send(_ bytes: [UInt8], from sender: TLSConnection) throws -> [UInt8] {
        let toServer = sender === client
        let wanted = (toServer ? receivedByServer : receivedByClient).count + bytes.count
        sender.send(bytes)
        try pump { (toServer ? receivedByServer : receivedByClient).count >= wanted }
        return toServer ? receivedByServer : receivedByClient
    }

    /// Runs both handshakes to completion.
    func connect() throws {
        try client.advanceHandshake()
        try pump { client.isHandshakeComplete && server.isHandshakeComplete }
    }
}

@Suite("TLS connection core over a socket")
struct TLSConnectionTests {
    /// What `connection` receives once its socket has something for it (bytes, or the peer's
    /// end); `.received(0)` after 10 s of nothing.
    static func receiveOnceReadable(_ connection: TLSConnection, discarding: Bool = false) throws -> TLSConnection.ReceiveResult {
        var result = TLSConnection.ReceiveResult.received(0)
        let deadline = Date().addingTimeInterval(10)
        while result == .received(0) && Date() < deadline {
            _ = try Syscall.waitUntilReadable(connection.fd, timeoutMilliseconds: 1_000)
            result = connection.receive(discarding: discarding)
        }
        return result
    }

    /// Sets how many bytes must wait in `fd`'s receive queue before it polls readable; whether it took.
    static func setLowWaterMark(_ fd: Int32, _ bytes: Int32) -> Bool {
        var value = bytes
        return setsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Runs `body` with a connected pair whose handshake is done.
    func withConnectedPair(_ body: (LoopbackTLSPair) throws -> Void) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let pair = try LoopbackTLSPair(certificates: try TLSTestHarness.certificates(in: directory))
            try pair.connect()
            try body(pair)
        }
    }

    /// Bytes that show where a piece was lost, doubled or reordered.
    static func pattern(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }

    @Test("a client and a server complete the handshake over a loopback socket, waiting only to read")
    func handshakeCompletesOverASocket() throws {
        try withConnectedPair { pair in
            #expect(pair.client.isHandshakeComplete && pair.server.isHandshakeComplete)
            #expect(!pair.interest.wantsWrite(pair.client.fd) && !pair.interest.wantsWrite(pair.server.fd))
            #expect(pair.interest.wantsRead(pair.client.fd) && pair.interest.wantsRead(pair.server.fd))
        }
    }

    @Test("queued pieces arrive whole and in order, small ones gathered and large ones a record at a time")
    func queuedPiecesArriveInOrder() throws {
        try withConnectedPair { pair in
            let pieces = (0..<200).map { Self.pattern($0 % 7 == 0 ? 40_000 + $0 : 1 + $0 * 3, seed: $0) }
            for piece in pieces { pair.client.send(piece) }
            let expected = pieces.flatMap { $0 }
            #expect(pair.client.queuedBytes == expected.count)

            try pair.pump { pair.receivedByServer.count >= expected.count }
            #expect(pair.client.queuedBytes == 0)
            #expect(pair.receivedByServer == expected)

            #expect(try pair.send(Array("and back".utf8), from: pair.server) == Array("and back".utf8))
        }
    }

    @Test("a socket that pushes back turns write interest on, and the rest leaves intact once the peer reads")
    func pushbackWaitsForWritability() throws {
        try withConnectedPair { pair in
            // Far more than a loopback socket buffers, in pieces sent straight and pieces gathered,
            // so retries happen on both paths.
            let pieces = (0..<480).map { Self.pattern($0.isMultiple(of: 2) ? 100_000 : 777, seed: $0) }
            for piece in pieces { pair.client.send(piece) }
            let expected = pieces.flatMap { $0 }

            guard case .pushedBack = pair.client.flush() else {
                Issue.record("24 MB should not fit in a loopback socket")
                return
            }
            #expect(pair.interest.wantsWrite(pair.client.fd))
            #expect(pair.client.queuedBytes > 0)
            #expect(!pair.client.releaseIdleMemory(), "nothing is released while output waits")

            try pair.pump { pair.receivedByServer.count >= expected.count }
            #expect(pair.client.queuedBytes == 0)
            #expect(!pair.interest.wantsWrite(pair.client.fd))
            #expect(pair.receivedByServer == expected)
            #expect(pair.client.releaseIdleMemory())
        }
    }

    @Test("close_notify follows the last queued byte")
    func closeNotifyFollowsTheLastByte() throws {
        try withConnectedPair { pair in
            let last = Self.pattern(50_000, seed: 9)
            pair.server.send(last)
            pair.server.closeAfterQueuedOutput()
            try pair.pump { pair.clientSawCloseNotify }
            #expect(pair.receivedByClient == last)
        }
    }

    @Test("a polite close sends close_notify and a plain one leaves the peer an end of file")
    func closesAreSeenByThePeer() throws {
        try withConnectedPair { pair in
            pair.client.close(notifyingPeer: true)
            #expect(pair.client.isClosed)
            try pair.pump { pair.serverSawCloseNotify }
            guard case .endOfFile = pair.server.receive() else {
                Issue.record("after close_notify the server should read end of file")
                return
            }
        }
        try withConnectedPair { pair in
            pair.server.close()
            let result = try Self.receiveOnceReadable(pair.client)
            guard case .endOfFile = result else {
                Issue.record("expected end of file, got \(result)")
                return
            }
        }
    }

    @Test("one receive reads at most maxReads buffers, so a busy peer cannot hold the loop")
    func receiveIsBoundedByMaxReads() throws {
        try withConnectedPair { pair in
            pair.client.send(Self.pattern(1 << 20, seed: 3))
            _ = pair.client.flush()
            // Whatever the socket took is on its way to the server's side of the loopback: the
            // server's socket turns readable once 64 KiB of it are there (SO_RCVLOWAT).
            #expect(Self.setLowWaterMark(pair.server.fd, 64 * 1024))
            #expect(try Syscall.waitUntilReadable(pair.server.fd, timeoutMilliseconds: 10_000), "64 KiB arrived")
            #expect(Self.setLowWaterMark(pair.server.fd, 1))
            // The default scratch reads 64 KiB at a time.
            #expect(pair.server.receive(maxReads: 1) == .received(64 * 1024))
            try pair.pump { pair.receivedByServer.count >= 1 << 20 }
            #expect(pair.receivedByServer == Self.pattern(1 << 20, seed: 3))
        }
    }

    @Test("a discarding receive takes bytes off the socket without handing them to TLS")
    func discardingReceiveDropsTheBytes() throws {
        try withConnectedPair { pair in
            pair.client.send(Self.pattern(1_000, seed: 5))
            _ = pair.client.flush()
            let result = try Self.receiveOnceReadable(pair.server, discarding: true)
            guard case .received(let count) = result else {
                Issue.record("expected bytes, got \(result)")
                return
            }
            #expect(count > 1_000)
            var delivered = 0
            let end = try pair.server.readPlaintext { delivered += $0.count }
            #expect(end == .needsMoreData)
            #expect(delivered == 0)
        }
    }

    @Test("read interest follows the owner, and a closed connection changes nothing more")
    func readInterestFollowsTheOwner() throws {
        try withConnectedPair { pair in
            pair.server.setReadInterest(false)
            #expect(!pair.interest.wantsRead(pair.server.fd))
            pair.server.setReadInterest(true)
            #expect(pair.interest.wantsRead(pair.server.fd))
            pair.server.setReadInterest(false)
            let changes = pair.interest.changes
            pair.server.close()
            pair.server.setReadInterest(true)
            pair.server.send([1, 2, 3])
            #expect(pair.server.queuedBytes == 0)
            #expect(pair.interest.changes == changes)
        }
    }

    @Test("idle memory is kept during the handshake and given back once it is done")
    func idleMemoryWaitsForTheHandshake() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let pair = try LoopbackTLSPair(certificates: try TLSTestHarness.certificates(in: directory))
            #expect(!pair.client.releaseIdleMemory())
            try pair.connect()
            #expect(pair.client.releaseIdleMemory() && pair.server.releaseIdleMemory())
            // A released connection carries on as before.
            #expect(try pair.send(Array("after release".utf8), from: pair.client) == Array("after release".utf8))
        }
    }

    @Test("a peer that speaks no TLS fails the handshake")
    func garbageFailsTheHandshake() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let pair = try LoopbackTLSPair(certificates: try TLSTestHarness.certificates(in: directory))
            // Stand in for a client that sends an HTTP request: written under the client's TLS.
            try Syscall.writeAll(pair.client.fd, Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            var failure: TLSError?
            let deadline = Date().addingTimeInterval(10)
            while failure == nil && Date() < deadline {
                _ = try Syscall.waitUntilReadable(pair.server.fd, timeoutMilliseconds: 100)
                _ = pair.server.receive()
                do throws(TLSError) { try pair.server.advanceHandshake() } catch { failure = error }
            }
            #expect(failure != nil)
            #expect(pair.server.isHandshakeComplete == false)
        }
    }
}
