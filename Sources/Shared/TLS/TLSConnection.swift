import Posix

/// One non-blocking TLS connection: a socket, its `TLSEngine`, and the plaintext waiting to leave.
///
/// The owner's event loop reports readiness and the owner calls in; this type does the rest the
/// same way for the server's connections and the bench's: read(2) into the loop's shared
/// `ScratchBuffers` and into the engine's input BIO, the handshake, decryption, and sealing the
/// queued plaintext a record at a time straight to the socket through the engine's socket sink.
/// It keeps the descriptor's epoll interest in step (through the loop's `InterestRegistry`):
/// write interest exactly while OpenSSL or the queue waits for the socket, read interest as the
/// owner asks. It knows nothing of frames; what the plaintext means is the owner's business.
///
/// Not Sendable: it lives on its event loop's thread, as its `SSL*` must.
public final class TLSConnection {
    /// Outcome of one `receive` call.
    public enum ReceiveResult: Sendable, Equatable {
        /// This many bytes came off the socket (0: nothing was waiting) and it has no more for now,
        /// or the read limit was reached.
        case received(Int)
        /// The peer closed its side of the stream, after this many bytes came in the same call.
        case endOfFile(after: Int)
        /// read(2) failed; the connection is unusable.
        case failed(SystemError)
    }

    /// How a `readPlaintext` call ended.
    public enum ReadEnd: Sendable, Equatable {
        /// Every complete record was decrypted; the rest must come from the network.
        case needsMoreData
        /// The peer sent close_notify: no more plaintext will come.
        case closed
    }

    /// Outcome of one `flush` call.
    public enum FlushResult: Sendable {
        /// Everything queued, and close_notify once asked for, has been handed to the kernel.
        case drained
        /// The socket pushed back: write interest is on, and the rest leaves on the next `flush`.
        case pushedBack
        /// Sealing or sending failed (the peer reset or left); close the connection.
        case failed(TLSError)
    }

    /// The socket; closed by `close()`, never by the owner.
    public let fd: Int32
    private let engine: TLSEngine
    private let scratch: ScratchBuffers
    private unowned let registry: any InterestRegistry

    /// Plaintext waiting to be sealed, oldest first, as the owner queued it (an image reply can
    /// be its head, then the image as a cache holds it); `plainOffset` bytes of the first are done.
    private var plainQueue: [[UInt8]] = []
    private var plainOffset = 0
    /// Bytes in the queue not yet sent.
    public private(set) var queuedBytes = 0
    /// The socket pushed back while a record of this many gathered bytes was leaving: the retry
    /// must hand OpenSSL the same bytes (see `TLSEngine.SendResult.wouldBlock`).
    private var pendingGather: Int?
    public private(set) var readInterest = true
    public private(set) var writeInterest = false
    /// close_notify goes out once the queue is empty (`closeAfterQueuedOutput`).
    private var closeNotifyWanted = false
    private var closeNotifySent = false
    public private(set) var isClosed = false

    /// Wraps the connected, non-blocking socket `fd` (which must not block: `flush` sends from the
    /// event loop) in a TLS session playing `role`. The owner registers `fd` with `registry` for
    /// reading only, and from then on the connection keeps that interest. Throws only when
    /// OpenSSL cannot make the session; the socket is then still the caller's to close.
    public init(
        fd: Int32, context: TLSContext, role: TLSEngine.Role, scratch: ScratchBuffers,
        registry: any InterestRegistry
    ) throws(TLSError) {
        engine = try TLSEngine(context: context, role: role, output: .socket(fd))
        self.fd = fd
        self.scratch = scratch
        self.registry = registry
    }

    /// True once the handshake has completed.
    public var isHandshakeComplete: Bool { engine.isHandshakeComplete }

    // MARK: Input

    /// Reads what the socket holds into the shared network buffer and hands it to TLS.
    ///
    /// Stops when the socket has nothing more, after `maxReads` full reads (so one busy peer
    /// cannot keep the loop from the others), or at end of file. `discarding` drops what is read
    /// instead (a connection that has said its last word and only waits for the peer's EOF).
    public func receive(maxReads: Int = .max, discarding: Bool = false) -> ReceiveResult {
        let buffer = scratch.network
        var total = 0
        for _ in 0..<maxReads {
            let result: IOResult<Int>
            do {
                result = try Syscall.read(fd, into: buffer)
            } catch {
                return .failed(error)
            }
            switch result {
            case .wouldBlock:
                break
            case .processed(0):
                return .endOfFile(after: total)
            case .processed(let count):
                total += count
                if !discarding { engine.receiveFromNetwork(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
                // A full buffer means the socket may hold more.
                if count == buffer.count { continue }
            }
            break
        }
        return .received(total)
    }

    /// Advances the handshake with what has arrived; true once it is complete.
    ///
    /// Why write interest comes in: OpenSSL sends its handshake records through the socket sink as
    /// it makes them. "Want read" means it has sent what it could and waits for the peer, so only
    /// readability matters; "want write" means the socket pushed back mid-record, and the
    /// handshake must be resumed, by calling this again, once the socket is writable. After a
    /// throw OpenSSL has already sent its alert; close the connection.
    @discardableResult
    public func advanceHandshake() throws(TLSError) -> Bool {
        switch try engine.handshake() {
        case .complete:
            setWriteInterest(false)
            return true
        case .needsMoreData:
            setWriteInterest(false)
            return false
        case .needsWritable:
            setWriteInterest(true)
            return false
        }
    }

    /// Decrypts every complete record that has arrived, handing the plaintext to `deliver` one
    /// run at a time (each run is only valid during the call).
    ///
    /// Reads until OpenSSL needs more network data, so nothing already decrypted is left inside
    /// OpenSSL where epoll cannot see it. A TLS 1.3 key update from the peer makes OpenSSL answer
    /// through the socket sink from inside this read. After a throw, close the connection.
    public func readPlaintext(_ deliver: (UnsafeRawBufferPointer) -> Void) throws(TLSError) -> ReadEnd {
        let buffer = scratch.plaintext
        while true {
            switch try engine.readPlaintext(into: buffer) {
            case .bytes(let count):
                deliver(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .needsMoreData:
                return .needsMoreData
            case .closed:
                return .closed
            }
        }
    }

    // MARK: Output

    /// Queues `bytes` to be sealed and sent by the next `flush`; kept as they are, never copied whole.
    public func send(_ bytes: [UInt8]) {
        guard !isClosed, !bytes.isEmpty else { return }
        plainQueue.append(bytes)
        queuedBytes += bytes.count
    }

    /// After the last byte queued so far, `flush` sends close_notify; queue nothing more.
    public func closeAfterQueuedOutput() {
        closeNotifyWanted = true
    }

    /// Seals queued plaintext a record at a time and sends each record as the socket takes it.
    ///
    /// Why a record at a time: the socket sink sends each record as soon as it is sealed, so
    /// ciphertext is never buffered by us; when the socket pushes back, OpenSSL keeps the one
    /// record it was sending and the rest waits here as plaintext until the socket is writable.
    /// Before the handshake completes this does nothing: what is queued waits for it, and write
    /// interest stays the handshake's.
    public func flush() -> FlushResult {
        guard !isClosed, engine.isHandshakeComplete else { return .drained }
        while true {
            if plainQueue.isEmpty {
                guard closeNotifyWanted, !closeNotifySent else { break }
                // close_notify goes after the last queued byte, never before it.
                guard engine.close() else {
                    setWriteInterest(true)
                    return .pushedBack
                }
                closeNotifySent = true
                break
            }
            switch sendNext() {
            case .sent:
                continue
            case .wouldBlock:
                setWriteInterest(true)
                return .pushedBack
            case .failed(let error):
                return .failed(error)
            }
        }
        setWriteInterest(false)
        return .drained
    }

    private enum SendOutcome {
        case sent, wouldBlock
        case failed(TLSError)
    }

    /// Seals and sends the next record's worth of queued plaintext: straight from the queue's head
    /// when a whole record's worth is left in it (an image), else gathered from the head and what
    /// follows it (small pieces together; an image's head with its first bytes; its last bytes
    /// with the next reply) into the shared record buffer, so every record but the last is full.
    /// Every record but the last queued goes with MSG_MORE (`TLSEngine.send(_:more:)`).
    private func sendNext() -> SendOutcome {
        let recordSize = ScratchBuffers.recordSize
        let result: Result<TLSEngine.SendResult, TLSError>
        if pendingGather == nil, plainQueue[0].count - plainOffset >= recordSize {
            let offset = plainOffset
            let more = queuedBytes > recordSize
            // withUnsafeBytes rethrows untyped errors, so the typed one crosses it inside a Result.
            result = plainQueue[0].withUnsafeBytes { raw in
                Result { () throws(TLSError) in
                    try engine.send(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + recordSize]), more: more)
                }
            }
        } else {
            let record = scratch.record
            let used = gather(into: record, upTo: pendingGather ?? recordSize)
            result = Result { () throws(TLSError) in
                try engine.send(UnsafeRawBufferPointer(rebasing: record[0..<used]), more: queuedBytes > used)
            }
            if case .success(.wouldBlock) = result { pendingGather = used } else { pendingGather = nil }
        }
        switch result {
        case .failure(let error):
            return .failed(error)
        case .success(.wouldBlock):
            return .wouldBlock
        case .success(.sent(let sent)):
            // Usually all of it; less when the peer asked for smaller records (TLS max_fragment_length).
            consume(sent)
            return .sent
        }
    }

    /// Copies up to `limit` bytes from the head of the queue on into `record`; returns how many.
    private func gather(into record: UnsafeMutableRawBufferPointer, upTo limit: Int) -> Int {
        var used = 0
        var offset = plainOffset
        for part in plainQueue {
            let count = min(part.count - offset, limit - used)
            part.withUnsafeBytes { bytes in
                (record.baseAddress! + used).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            }
            used += count
            offset = 0
            if used == limit { break }
        }
        return used
    }

    /// Drops `count` sent bytes from the head of the queue.
    private func consume(_ count: Int) {
        queuedBytes -= count
        var left = count
        while left > 0 {
            let rest = plainQueue[0].count - plainOffset
            guard left >= rest else {
                plainOffset += left
                return
            }
            left -= rest
            plainQueue.removeFirst()
            plainOffset = 0
        }
    }

    // MARK: Interest, memory, closing

    /// Waits for readability or stops waiting for it (an owner that cannot take more input yet).
    public func setReadInterest(_ on: Bool) {
        guard on != readInterest, !isClosed else { return }
        readInterest = on
        registry.setInterest(fd, read: readInterest, write: writeInterest)
    }

    private func setWriteInterest(_ on: Bool) {
        guard on != writeInterest, !isClosed else { return }
        writeInterest = on
        registry.setInterest(fd, read: readInterest, write: writeInterest)
    }

    /// Gives back the queue's storage and OpenSSL's buffers when nothing waits to be sent and the
    /// handshake is done; true if it did. An idle connection then holds only its session keys.
    @discardableResult
    public func releaseIdleMemory() -> Bool {
        guard plainQueue.isEmpty, !writeInterest, engine.isHandshakeComplete, !isClosed else { return false }
        plainQueue = []
        engine.releaseIdleMemory()
        return true
    }

    /// Closes the socket now and drops what is queued. The owner removes `fd` from its loop first.
    ///
    /// `notifyingPeer` drops what is queued and sends close_notify first, when it can go at once:
    /// not before the handshake is done, and not while OpenSSL holds a record the socket pushed
    /// back (an alert cannot overtake it; the peer then reads end of file without one).
    public func close(notifyingPeer: Bool = false) {
        guard !isClosed else { return }
        if notifyingPeer, !writeInterest {
            _ = engine.close()
        }
        isClosed = true
        Syscall.close(fd)
        plainQueue = []
        queuedBytes = 0
    }
}

/// An `SSL*` and the loop's buffers stay on the loop's thread.
@available(*, unavailable)
extension TLSConnection: Sendable {}
