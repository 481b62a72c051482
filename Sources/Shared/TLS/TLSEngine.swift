import COpenSSL
import Glibc

/// One TLS connection as a byte transformer: ciphertext in from the network, plaintext out, and back.
///
/// By default the engine never touches a socket: the caller owns read(2)/write(2) and moves bytes through two memory
/// BIOs (the swift-nio-ssl design), so handshakes can run entirely in memory in tests:
///
///     engine.receiveFromNetwork(bytesReadFromSocket)
///     try engine.handshake() / try engine.readPlaintext(into: &inbox, maxBytes: n)
///     send(engine.takeNetworkBytes())      // after *every* call: handshakes, alerts and key updates land here
///
/// End of file: the engine only sees memory, so when read(2) returns 0 the caller calls `networkClosed()`; reads
/// then drain what is left and end in `.closed` if the peer sent close_notify, or throw `.unexpectedEOF` if not.
/// After any thrown error the engine is dead (every call rethrows it); flush `takeNetworkBytes()` once to send
/// OpenSSL's alert, then close the socket.
///
/// `TLSConnection` (the server's and the bench's connections) instead lets OpenSSL send sealed records straight to
/// the socket (`Output.socket`, then `send(_:)`): each record goes from OpenSSL's record buffer to the kernel without
/// passing through a memory BIO and a second buffer, which for a 100 KB photo saves two copies of it. Input stays in
/// memory either way.
///
/// Not Sendable: an `SSL*` must stay on the thread that owns the connection.
public final class TLSEngine {
    /// Where sealed records go.
    public enum Output: Sendable, Equatable {
        /// Into a memory BIO; take them with `takeNetworkBytes` and write them yourself.
        case memory
        /// Straight to this non-blocking socket (never closed by the engine); send with `send(_:)`.
        case socket(Int32)
    }

    /// Which end of the connection this engine plays.
    public enum Role: Sendable, Equatable {
        case server
        /// A client that expects the server to prove `serverName`: a DNS name, or an IPv4/IPv6 literal.
        case client(serverName: String)
    }

    /// Progress of the handshake.
    public enum HandshakeState: Sendable, Equatable {
        case complete
        /// Send `takeNetworkBytes()`, then call again when more bytes arrive from the network.
        case needsMoreData
        /// Socket output only: the socket pushes back; call again once it is writable.
        case needsWritable
    }

    /// Outcome of one `send` call (socket output).
    public enum SendResult: Sendable, Equatable {
        /// This many plaintext bytes were sealed and handed to the kernel.
        case sent(Int)
        /// The socket pushes back. OpenSSL holds the unsent rest of the record: once the socket is writable, call
        /// again with the same bytes (the same count; the memory may have moved).
        case wouldBlock
    }

    /// Outcome of one `readPlaintext` call.
    public enum ReadResult: Sendable, Equatable {
        /// This many plaintext bytes were appended to the buffer.
        case bytes(Int)
        /// Every complete record has been decrypted; wait for the network.
        case needsMoreData
        /// The peer sent close_notify: no more plaintext will come.
        case closed
    }

    /// The most plaintext one TLS record carries: the largest chunk handed to one SSL_read_ex, and
    /// the most `send(_:)` takes.
    public static let maxRecordPlaintext = 16 * 1024

    private let ssl: OpaquePointer
    /// Ciphertext from the network, consumed by OpenSSL. Owned by `ssl` (SSL_set_bio); replaced by
    /// `releaseIdleMemory()`.
    private var networkInput: OpaquePointer
    /// Where OpenSSL's sealed records go: a memory BIO holding them until taken, or the socket
    /// sink that sends them at once. Owned by `ssl` (SSL_set_bio).
    private var networkOutput: OpaquePointer
    /// True when sealed records go straight to a socket.
    private let sendsToSocket: Bool
    /// The socket output sends with MSG_MORE (see `send(_:more:)`).
    private var sendingMore = false
    /// Set when a memory BIO or OpenSSL's record buffers may have grown since the last
    /// `releaseIdleMemory()`.
    private var networkBuffersUsed = true
    /// `networkClosed()` was called: the input BIO carries the end-of-file mark and must stay.
    private var inputClosed = false
    private let context: TLSContext
    private let role: Role

    private var handshakeCompleted = false
    private var closeNotifySent = false
    /// Socket output: close_notify is sealed but the socket has not taken all of it yet.
    private var closeNotifyPending = false
    private var closeNotifyReceived = false
    /// Set when the last read stopped at `maxBytes` rather than at "needs more data".
    private var lastReadHitLimit = false
    /// The first fatal error; later calls rethrow it rather than poke a broken SSL object.
    private var failure: TLSError?

    /// Makes an engine for one connection. A client sends SNI (unless `serverName` is an IP literal) and checks
    /// that the server's certificate names `serverName`.
    public init(context: TLSContext, role: Role, output destination: Output = .memory) throws(TLSError) {
        OpenSSLErrorQueue.clear()
        guard let ssl = SSL_new(context.handle) else {
            throw TLSError.drainingErrorQueue(.internal, "SSL_new failed")
        }
        guard let input = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw TLSError.drainingErrorQueue(.internal, "BIO_new failed")
        }
        let made: OpaquePointer?
        switch destination {
        case .memory: made = BIO_new(BIO_s_mem())
        case .socket(let fd): made = Self.socketSinkMethod.flatMap { snapshare_socket_sink_new($0, fd) }
        }
        guard let output = made else {
            BIO_free(input)
            SSL_free(ssl)
            throw TLSError.drainingErrorQueue(.internal, "BIO_new failed")
        }
        // From here SSL_free releases both BIOs. Once every stored property is set, a throw out of this init still
        // runs deinit, so deinit is the only place that frees: never free `ssl` on a later error path.
        SSL_set_bio(ssl, input, output)
        self.ssl = ssl
        self.networkInput = input
        self.networkOutput = output
        self.sendsToSocket = destination != .memory
        self.context = context
        self.role = role

        switch role {
        case .server:
            SSL_set_accept_state(ssl)
        case .client(let serverName):
            SSL_set_connect_state(ssl)
            try expectServerIdentity(serverName)
        }
    }

    deinit {
        SSL_free(ssl)
    }

    /// The socket sink's BIO method, made once per process and never freed; nil if OpenSSL could not make it.
    nonisolated(unsafe) private static let socketSinkMethod: OpaquePointer? = snapshare_socket_sink_method_new()

    // MARK: Network side

    /// Hands ciphertext read from the socket to OpenSSL. A memory BIO takes all of it.
    public func receiveFromNetwork(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let chunk = Int32(min(bytes.count - offset, Int(Int32.max)))
            let written = BIO_write(networkInput, bytes.baseAddress! + offset, chunk)
            precondition(written == chunk, "memory BIO refused \(chunk) bytes")
            offset += Int(written)
        }
        networkBuffersUsed = true
    }

    /// Hands ciphertext read from the socket to OpenSSL.
    public func receiveFromNetwork(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { receiveFromNetwork($0) }
    }

    /// Tells the engine the peer closed the TCP stream: once buffered bytes are used up, OpenSSL sees end of file.
    public func networkClosed() {
        inputClosed = true
        _ = snapshare_BIO_set_mem_eof_return(networkInput, 0)
    }

    /// Ciphertext waiting to be written to the socket.
    public var pendingNetworkBytes: Int {
        Int(BIO_ctrl_pending(networkOutput))
    }

    /// Appends up to `maxBytes` of pending ciphertext to `buffer` and returns how many were appended.
    public func takeNetworkBytes(into buffer: inout [UInt8], maxBytes: Int) -> Int {
        let count = min(pendingNetworkBytes, maxBytes, Int(Int32.max))
        guard count > 0 else { return 0 }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        let taken = buffer.withUnsafeMutableBytes { BIO_read(networkOutput, $0.baseAddress! + start, Int32(count)) }
        let appended = max(Int(taken), 0)
        buffer.removeLast(count - appended)
        return appended
    }

    /// Moves up to `buffer.count` bytes of pending ciphertext into `buffer` and returns how many
    /// (memory output only). A program driving many connections from one thread can take
    /// ciphertext into one scratch buffer they all share and write it from there.
    public func takeNetworkBytes(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, Int(Int32.max))
        guard count > 0, let base = buffer.baseAddress else { return 0 }
        // An empty memory BIO answers -1 ("retry"): nothing was taken.
        let taken = BIO_read(networkOutput, base, Int32(count))
        if taken > 0 { networkBuffersUsed = true }
        return max(Int(taken), 0)
    }

    /// Gives back the memory a quiet connection does not need: OpenSSL's record buffers, and the storage of both
    /// memory BIOs, which otherwise keep the capacity of the largest burst they ever carried. Does nothing while
    /// bytes wait in either direction, so it is safe to call at any quiet moment; an idle server connection then
    /// holds only OpenSSL's session state (keys, cipher contexts) and no buffers.
    public func releaseIdleMemory() {
        guard networkBuffersUsed, failure == nil, !inputClosed,
            BIO_ctrl_pending(networkInput) == 0, BIO_ctrl_pending(networkOutput) == 0, SSL_pending(ssl) == 0
        else { return }
        // Returns 0 while a partial record sits in OpenSSL's own buffer; that is fine, it stays where it is.
        _ = SSL_free_buffers(ssl)
        guard let input = BIO_new(BIO_s_mem()) else { return }
        if sendsToSocket {
            // The socket sink holds no bytes: only the input BIO is swapped (SSL_set0_rbio frees the old one).
            SSL_set0_rbio(ssl, input)
            networkInput = input
            networkBuffersUsed = false
            return
        }
        guard let output = BIO_new(BIO_s_mem()) else {
            BIO_free(input)
            return
        }
        // Both differ from the current pair, so SSL_set_bio frees the old BIOs. Memory BIOs hold nothing but
        // bytes, and both are empty, so nothing is lost in the swap.
        SSL_set_bio(ssl, input, output)
        networkInput = input
        networkOutput = output
        networkBuffersUsed = false
    }

    /// Returns all pending ciphertext.
    public func takeNetworkBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        while takeNetworkBytes(into: &bytes, maxBytes: Int.max) > 0 {}
        return bytes
    }

    // MARK: Handshake

    /// Advances the handshake with whatever input has arrived. Call until it returns `.complete`.
    public func handshake() throws(TLSError) -> HandshakeState {
        if let failure { throw failure }
        if handshakeCompleted { return .complete }
        OpenSSLErrorQueue.clear()
        errno = 0
        let status = SSL_do_handshake(ssl)
        if status == 1 {
            try decidePeerTrust()
            handshakeCompleted = true
            return .complete
        }
        let code = SSL_get_error(ssl, status)
        // "Want read" means the input BIO is empty. "Want write" only happens with socket output, when the socket
        // pushes back; a memory BIO always takes everything.
        if code == SSL_ERROR_WANT_WRITE && sendsToSocket {
            return .needsWritable
        }
        if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE {
            return .needsMoreData
        }
        throw fail(error(forSSLError: code, duringHandshake: true))
    }

    /// True once `handshake()` has returned `.complete`.
    public var isHandshakeComplete: Bool { handshakeCompleted }

    // MARK: Plaintext side

    /// Decrypts buffered input and appends up to `maxBytes` of plaintext to `buffer`.
    ///
    /// Reads until OpenSSL needs more network data, so nothing already decrypted is left stranded where epoll
    /// cannot see it. If it stops at `maxBytes`, `hasBufferedPlaintext` is true and the caller should read again.
    /// Send `takeNetworkBytes()` afterwards: a TLS 1.3 key update from the peer makes OpenSSL answer.
    public func readPlaintext(into buffer: inout [UInt8], maxBytes: Int) throws(TLSError) -> ReadResult {
        precondition(maxBytes > 0, "maxBytes must be positive")
        // Grow the array a chunk at a time and let the raw-memory read below do the work.
        var total = 0
        while total < maxBytes {
            let wanted = min(maxBytes - total, Self.maxRecordPlaintext)
            let start = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: wanted))
            let result: ReadResult
            do {
                result = try buffer.withUnsafeMutableBytes { (raw) throws(TLSError) -> ReadResult in
                    try readPlaintext(into: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
                }
            } catch let error as TLSError {
                buffer.removeLast(wanted)
                // Hand over what was decrypted before the failure; the next call throws.
                if total > 0 { return .bytes(total) }
                throw error
            } catch {
                preconditionFailure("readPlaintext(into:) throws only TLSError")
            }
            switch result {
            case .bytes(let count):
                buffer.removeLast(wanted - count)
                total += count
                if count < wanted { return .bytes(total) }
            case .needsMoreData, .closed:
                buffer.removeLast(wanted)
                return total > 0 ? .bytes(total) : result
            }
        }
        return .bytes(total)
    }

    /// Decrypts buffered input into `buffer`, from its start, until OpenSSL needs more network data or the buffer
    /// is full. The contract is `readPlaintext(into:maxBytes:)`'s; `.bytes(n)` means the first n bytes of `buffer`
    /// hold plaintext. Nothing is zero-filled first, so a server decrypts straight into one shared scratch buffer.
    public func readPlaintext(into buffer: UnsafeMutableRawBufferPointer) throws(TLSError) -> ReadResult {
        precondition(buffer.count > 0, "the buffer must not be empty")
        if let failure { throw failure }
        guard handshakeCompleted else {
            throw TLSError(kind: .internal, summary: "readPlaintext called before the handshake completed")
        }
        if closeNotifyReceived { return .closed }
        lastReadHitLimit = false
        let base = buffer.baseAddress!
        var total = 0
        while total < buffer.count {
            var received = 0
            OpenSSLErrorQueue.clear()
            let status = SSL_read_ex(ssl, base + total, buffer.count - total, &received)
            if status == 1 {
                total += received
                continue
            }
            let code = SSL_get_error(ssl, status)
            switch code {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return total > 0 ? .bytes(total) : .needsMoreData
            case SSL_ERROR_ZERO_RETURN:
                closeNotifyReceived = true
                return total > 0 ? .bytes(total) : .closed
            default:
                let error = fail(error(forSSLError: code, duringHandshake: false))
                if total > 0 { return .bytes(total) }
                throw error
            }
        }
        lastReadHitLimit = true
        return .bytes(total)
    }

    /// True when a read may return plaintext without new network input: OpenSSL holds decrypted bytes, or the last
    /// read stopped at its `maxBytes` limit. Partial records do not count, so `while hasBufferedPlaintext` cannot spin.
    public var hasBufferedPlaintext: Bool {
        SSL_pending(ssl) > 0 || (lastReadHitLimit && failure == nil && !closeNotifyReceived)
    }

    /// Socket output: seals `bytes` (at most one record's worth, 16 KiB) into one TLS record and sends it.
    /// `more`: the caller sends another record right after this one, so the kernel may hold this one back to
    /// pack them into fewer, larger TCP segments (MSG_MORE); the last record of a burst must say false.
    public func send(_ bytes: UnsafeRawBufferPointer, more: Bool = false) throws(TLSError) -> SendResult {
        precondition(sendsToSocket, "send(_:) is for socket output; use writePlaintext")
        precondition(!bytes.isEmpty && bytes.count <= Self.maxRecordPlaintext, "send(_:) takes 1 to 16384 bytes")
        try checkWritable("send")
        sendMore(more)
        var written = 0
        OpenSSLErrorQueue.clear()
        errno = 0
        // OpenSSL allocates its record buffer again for this: let the next idle release free it.
        networkBuffersUsed = true
        let status = SSL_write_ex(ssl, bytes.baseAddress!, bytes.count, &written)
        if status == 1 { return .sent(written) }
        let code = SSL_get_error(ssl, status)
        if code == SSL_ERROR_WANT_WRITE { return .wouldBlock }
        throw fail(error(forSSLError: code, duringHandshake: false))
    }

    private func checkWritable(_ operation: String) throws(TLSError) {
        if let failure { throw failure }
        guard handshakeCompleted else {
            throw TLSError(kind: .internal, summary: "\(operation) called before the handshake completed")
        }
        guard !closeNotifySent else {
            throw TLSError(kind: .closed, summary: "\(operation) called after close()")
        }
    }

    /// Encrypts all of `bytes` into the outgoing buffer; send it with `takeNetworkBytes()`.
    public func writePlaintext(_ bytes: UnsafeRawBufferPointer) throws(TLSError) {
        precondition(!sendsToSocket, "writePlaintext is for memory output; use send(_:)")
        try checkWritable("writePlaintext")
        var offset = 0
        while offset < bytes.count {
            var written = 0
            OpenSSLErrorQueue.clear()
            // Partial-write mode returns after each record, hence the loop; a memory BIO never pushes back.
            let status = SSL_write_ex(ssl, bytes.baseAddress! + offset, bytes.count - offset, &written)
            guard status == 1 else {
                throw fail(error(forSSLError: SSL_get_error(ssl, status), duringHandshake: false))
            }
            offset += written
        }
    }

    /// Encrypts all of `bytes` into the outgoing buffer; send it with `takeNetworkBytes()`.
    public func writePlaintext(_ bytes: [UInt8]) throws(TLSError) {
        // withUnsafeBytes only rethrows untyped errors, so the outcome leaves the closure as a Result.
        let outcome = bytes.withUnsafeBytes { buffer in
            Result { () throws(TLSError) in try writePlaintext(buffer) }
        }
        try outcome.get()
    }

    /// Queues close_notify for the peer (once). Send `takeNetworkBytes()`, then close the socket; waiting for the
    /// peer's own close_notify is not required. Does nothing before the handshake completes or after a failure.
    /// With socket output, false means the socket pushed back: call again once it is writable.
    @discardableResult
    public func close() -> Bool {
        guard handshakeCompleted, failure == nil, !closeNotifySent || closeNotifyPending else { return true }
        closeNotifySent = true
        networkBuffersUsed = true
        sendMore(false)
        OpenSSLErrorQueue.clear()
        // Returns 0 ("sent ours, theirs not seen yet") or 1; with memory BIOs neither needs a retry.
        let status = SSL_shutdown(ssl)
        closeNotifyPending = status < 0 && SSL_get_error(ssl, status) == SSL_ERROR_WANT_WRITE
        OpenSSLErrorQueue.clear()
        return !closeNotifyPending
    }

    // MARK: After the handshake

    /// Why this client accepted the server (nil on a server, and before the handshake completes).
    public private(set) var peerTrust: PeerTrust?

    /// SHA-256 of the peer's leaf certificate (DER); nil when the peer sent none (a server's view).
    public var peerCertificateSHA256: [UInt8]? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        return X509Certificate(taking: certificate).sha256
    }

    /// The negotiated protocol, e.g. "TLSv1.3"; meaningful once the handshake is complete.
    public var negotiatedProtocol: String {
        String(cString: SSL_get_version(ssl))
    }

    /// The negotiated cipher suite, e.g. "TLS_AES_256_GCM_SHA384"; empty before the handshake completes.
    public var cipherSuite: String {
        guard let cipher = SSL_get_current_cipher(ssl) else { return "" }
        return String(cString: SSL_CIPHER_get_name(cipher))
    }

    // MARK: Private

    /// Sets SNI and tells OpenSSL which name or address the server's certificate must carry.
    private func expectServerIdentity(_ serverName: String) throws(TLSError) {
        guard !serverName.isEmpty else {
            throw TLSError(kind: .configuration, summary: "empty server name")
        }
        let isAddress = IPAddress.isLiteral(serverName)
        if !isAddress {
            // RFC 6066 forbids IP literals in SNI, so only names are sent.
            guard snapshare_SSL_set_tlsext_host_name(ssl, serverName) == 1 else {
                throw TLSError.drainingErrorQueue(.configuration, "invalid server name \(serverName)")
            }
        }
        // Checked by OpenSSL in both client modes; without a trust file a mismatch is only recorded, and
        // decidePeerTrust() checks the name again against the pinnable chain.
        if isAddress {
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName) == 1 else {
                throw TLSError.drainingErrorQueue(.configuration, "invalid IP address \(serverName)")
            }
        } else {
            SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            guard SSL_set1_host(ssl, serverName) == 1 else {
                throw TLSError.drainingErrorQueue(.configuration, "invalid server name \(serverName)")
            }
        }
    }

    /// A client's reason to accept the server: the trust file's verdict (OpenSSL already failed the handshake
    /// otherwise), the system's, or a chain that verifies against its own anchor for the caller to pin.
    private func decidePeerTrust() throws(TLSError) {
        guard case .client(let serverName) = role else { return }
        switch context.trust {
        case .none: return
        case .trustFile: peerTrust = .trustFile
        case .systemOrPin:
            do { peerTrust = try PeerTrust.decide(ssl: ssl, serverName: serverName) } catch { throw fail(error) }
        }
    }

    /// Tells the socket output whether records written next are followed by more (MSG_MORE).
    private func sendMore(_ more: Bool) {
        guard sendsToSocket, more != sendingMore else { return }
        sendingMore = more
        snapshare_socket_sink_set_more(networkOutput, more ? 1 : 0)
    }

    /// Records `error` as the engine's terminal failure and returns it.
    private func fail(_ error: TLSError) -> TLSError {
        failure = error
        return error
    }

    /// Turns an SSL_get_error code plus the error queue into a TLSError, emptying the queue.
    private func error(forSSLError code: Int32, duringHandshake: Bool) -> TLSError {
        let entries = OpenSSLErrorQueue.drain()
        let texts = entries.map(\.text)
        switch code {
        case SSL_ERROR_ZERO_RETURN:
            return TLSError(kind: .closed, summary: "peer closed the TLS session", openSSLErrors: texts)
        case SSL_ERROR_SYSCALL:
            // Memory BIOs make no system calls: this is OpenSSL's way of saying the input ended, or, with socket
            // output, that send(2) failed (the peer reset or left).
            if sendsToSocket && errno != 0 {
                let reason = String(cString: strerror(errno))
                return TLSError(kind: .unexpectedEOF, summary: "sending failed: \(reason)", openSSLErrors: texts)
            }
            return TLSError(kind: .unexpectedEOF, summary: "network closed without close_notify", openSSLErrors: texts)
        case SSL_ERROR_SSL:
            break
        default:
            return TLSError(kind: .internal, summary: "unexpected SSL_get_error code \(code)", openSSLErrors: texts)
        }
        let reasons = Set(entries.filter { $0.library == ERR_LIB_SSL }.map(\.reason))
        if reasons.contains(SSL_R_CERTIFICATE_VERIFY_FAILED) {
            return TLSError.verification(code: SSL_get_verify_result(ssl), openSSLErrors: texts)
        }
        let versionReasons: Set<Int32> = [
            SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_TLSV1_ALERT_PROTOCOL_VERSION, SSL_R_NO_PROTOCOLS_AVAILABLE,
            SSL_R_UNSUPPORTED_SSL_VERSION, SSL_R_WRONG_SSL_VERSION,
        ]
        if !reasons.isDisjoint(with: versionReasons) {
            return TLSError(kind: .protocolVersion, summary: "peer does not speak TLS 1.3", openSSLErrors: texts)
        }
        if reasons.contains(SSL_R_UNEXPECTED_EOF_WHILE_READING) {
            return TLSError(kind: .unexpectedEOF, summary: "network closed without close_notify", openSSLErrors: texts)
        }
        if duringHandshake {
            return TLSError(kind: .handshakeFailed, summary: "TLS handshake failed", openSSLErrors: texts)
        }
        return TLSError(kind: .protocolViolation, summary: "invalid TLS data from peer", openSSLErrors: texts)
    }
}

/// An `SSL*` is not safe to share between threads; the engine lives on its connection's event-loop thread.
@available(*, unavailable)
extension TLSEngine: Sendable {}
