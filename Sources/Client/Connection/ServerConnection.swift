import CommandLineParsing
import Posix
import TLS
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking TLS connection to a Snapshare server: connect, handshake, verify, Hello.
///
/// Uses the same `TLSEngine` as the server; this side owns a blocking socket with timeouts.
/// Requests can be pipelined: `send` any number, then `receive` the replies (matched by id).
package final class ServerConnection {
    package let host: String
    package let port: Int
    /// SHA-256 of the server's leaf certificate.
    private(set) var peerFingerprint: [UInt8] = []
    /// Why the TLS layer accepted the server: a trust file, the system's roots, or a chain to pin.
    private(set) var peerTrust: PeerTrust?
    private let fd: Int32
    private let tls: TLSEngine
    private var decoder = FrameDecoder(maxPayload: 64 * 1024 * 1024)
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var plain: [UInt8] = []
    private var cipher: [UInt8] = []
    private var nextRequestID: UInt32 = 1
    private var closed = false
    /// The protocol version Hello settled on (Welcome's); frames are read and written in it.
    package private(set) var protocolVersion = ProtocolConstants.current

    /// Connects and completes the TLS handshake. `verifyPeer` sees why the server was accepted
    /// (`peerTrust`) before anything is sent over the connection, to pin what needs pinning;
    /// throwing from it aborts. `source` is the local address to connect from (tests standing in
    /// for another machine).
    package init(
        host: String, port: Int, context: TLSContext, timeout: Double = 15, source: String? = nil,
        verifyPeer: (ServerConnection) throws(ClientError) -> Void = { _ throws(ClientError) in }
    ) throws(ClientError) {
        self.host = host
        self.port = port
        do {
            fd = try Socket.connect(host: host, port: port, timeout: timeout, source: source)
        } catch {
            let hint =
                [ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH].contains(error.errno)
                ? " (is snapshare-server running at \(HostPort(host: host, port: UInt16(clamping: port)))? "
                    + "--server or SNAPSHARE_SERVER picks another)"
                : ""
            throw ClientError(
                .connection, "cannot connect to \(HostPort(host: host, port: UInt16(clamping: port))): \(error.reason)\(hint)")
        }
        Socket.setTimeouts(fd, seconds: timeout)
        do {
            tls = try TLSEngine(context: context, role: .client(serverName: host))
        } catch {
            Syscall.close(fd)
            throw ClientError(.tls, "TLS setup failed: \(error)")
        }
        do {
            try handshake()
        } catch {
            Syscall.close(fd)
            closed = true
            throw error
        }
        peerFingerprint = tls.peerCertificateSHA256 ?? []
        peerTrust = tls.peerTrust
        do { try verifyPeer(self) } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    private func handshake() throws(ClientError) {
        while true {
            let state: TLSEngine.HandshakeState
            do { state = try tls.handshake() } catch {
                try? flushCipher()
                let message = "TLS handshake with \(host):\(port) failed: \(error)"
                let refused = error.kind == .certificateVerifyFailed || error.kind == .hostnameMismatch
                throw refused ? ClientError.certificate(message) : ClientError(.tls, message)
            }
            try flushCipher()
            if state == .complete { return }
            guard try receiveCipher() else {
                // A connection lost, not refused: behind a load balancer, an instance that just died
                // (the balancer accepted and then closed); the next connection may well reach a live one.
                throw ClientError(
                    .connection,
                    "\(host):\(port) closed the connection during the TLS handshake (is it a Snapshare server speaking TLS 1.3?)")
            }
        }
    }

    /// Sends Hello offering `versions` and reads Welcome; from then on the connection speaks
    /// the version it names. A server with no version in common refuses with
    /// `UNSUPPORTED_VERSION`, whose message says which side to upgrade.
    package func hello(clientName: String = "snapshare-cli", versions: ClosedRange<UInt16> = ProtocolConstants.versions) throws(ClientError)
        -> Welcome
    {
        let frame = try roundTrip(Hello(minVersion: versions.lowerBound, maxVersion: versions.upperBound, clientName: clientName))
        let welcome: Welcome = try Self.expect(frame, version: versions.lowerBound)
        guard versions.contains(welcome.version) else {
            throw ClientError(
                .incompatible,
                "\(host):\(port) chose protocol version \(welcome.version), which this client did not offer "
                    + "(\(versions.lowerBound)-\(versions.upperBound))")
        }
        protocolVersion = welcome.version
        return welcome
    }

    // MARK: Requests

    /// Sends a request and returns its id. `progress` sees (bytes sent, total) for big frames.
    @discardableResult
    package func send<M: WireMessage>(_ message: M, progress: ((Int, Int) -> Void)? = nil) throws(ClientError) -> UInt32 {
        // An older server's version lacks newer requests: sent anyway it would close the
        // connection (an unknown type is fatal), so the command fails here, saying why.
        guard M.type.exists(in: protocolVersion) else {
            throw ClientError(
                .incompatible,
                "the server at \(host):\(port) speaks protocol version \(protocolVersion), which has no "
                    + "\(M.type.name) (protocol \(M.type.since) and later): ask its operator to upgrade snapshare-server")
        }
        let id = nextRequestID
        nextRequestID = nextRequestID == UInt32.max ? 1 : nextRequestID + 1
        try sendRaw(Frame(message, requestID: id, version: protocolVersion).encoded(), progress: progress)
        return id
    }

    /// Sends raw bytes as application data (tests use this for malformed frames).
    package func sendRaw(_ bytes: [UInt8], progress: ((Int, Int) -> Void)? = nil) throws(ClientError) {
        var offset = 0
        let chunk = 64 * 1024
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            do {
                try bytes.withUnsafeBytes { try tls.writePlaintext(UnsafeRawBufferPointer(rebasing: $0[offset..<end])) }
            } catch {
                throw ClientError(.tls, "TLS write failed: \(error)")
            }
            try flushCipher()
            offset = end
            progress?(offset, bytes.count)
        }
    }

    /// Reads the next frame from the server.
    package func receive() throws(ClientError) -> Frame {
        while true {
            do {
                if let frame = try decoder.nextFrame() { return frame }
            } catch {
                throw ClientError(.server, "the server sent a malformed frame: \(error)")
            }
            try readPlaintext()
        }
    }

    /// Sends one request and waits for its reply.
    package func roundTrip<M: WireMessage>(_ message: M, progress: ((Int, Int) -> Void)? = nil) throws(ClientError) -> Frame {
        let id = try send(message, progress: progress)
        while true {
            let frame = try receive()
            if frame.requestID == id { return frame }
            if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self), error.fatal {
                throw ClientError(server: error)
            }
        }
    }

    /// Decodes a reply as `M` in this connection's protocol version, turning an Error frame into
    /// a `ClientError`.
    package func expect<M: WireMessage>(_ frame: Frame, as type: M.Type = M.self) throws(ClientError) -> M {
        try Self.expect(frame, as: type, version: protocolVersion)
    }

    /// Decodes a reply as `M` in protocol `version`, turning an Error frame into a `ClientError`.
    package static func expect<M: WireMessage>(
        _ frame: Frame, as type: M.Type = M.self,
        version: UInt16 = ProtocolConstants.current
    ) throws(ClientError) -> M {
        if frame.type == MessageType.error.rawValue {
            do { throw ClientError(server: try frame.decode(ErrorMessage.self)) } catch let error as ClientError { throw error } catch {
                throw ClientError(.server, "the server sent a malformed error: \(error)")
            }
        }
        do { return try frame.decode(M.self, version: version) } catch {
            throw ClientError(.server, "unexpected reply to the request: \(error)")
        }
    }

    /// Sends close_notify and closes the socket.
    package func close() {
        guard !closed else { return }
        closed = true
        tls.close()
        try? flushCipher()
        Syscall.close(fd)
    }

    // MARK: Bytes

    private func readPlaintext() throws(ClientError) {
        while true {
            plain.removeAll(keepingCapacity: true)
            let result: TLSEngine.ReadResult
            do { result = try tls.readPlaintext(into: &plain, maxBytes: 1 << 20) } catch {
                throw ClientError(.tls, "TLS read failed: \(error)")
            }
            switch result {
            case .bytes:
                decoder.append(plain)
                return
            case .closed:
                throw ClientError(.connection, "the server closed the connection")
            case .needsMoreData:
                try flushCipher()
                guard try receiveCipher() else { throw ClientError(.connection, "the server closed the connection") }
            }
        }
    }

    /// Reads ciphertext from the socket into TLS; false on EOF.
    private func receiveCipher() throws(ClientError) -> Bool {
        let result: IOResult<Int>
        do {
            result = try Syscall.read(fd, into: &readBuffer)
        } catch {
            throw ClientError(.connection, "read from \(host):\(port) failed: \(error.reason)")
        }
        let count: Int
        switch result {
        case .processed(0): return false
        case .processed(let n): count = n
        case .wouldBlock: throw ClientError(.connection, "timed out waiting for \(host):\(port)") // SO_RCVTIMEO
        }
        readBuffer.withUnsafeBytes { tls.receiveFromNetwork(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return true
    }

    private func flushCipher() throws(ClientError) {
        while tls.pendingNetworkBytes > 0 {
            cipher.removeAll(keepingCapacity: true)
            _ = tls.takeNetworkBytes(into: &cipher, maxBytes: 256 * 1024)
            do {
                try Syscall.sendAll(fd, cipher)
            } catch {
                throw ClientError(.connection, "write to \(host):\(port) failed: \(error.reason)")
            }
        }
    }
}
