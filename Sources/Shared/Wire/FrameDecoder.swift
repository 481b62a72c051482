/// Splits a byte stream into frames incrementally.
///
/// The payload limit is checked as soon as a header is complete, before a single payload byte
/// is buffered (mosquitto's `packet__read` discipline), so a peer announcing 4 GiB costs us 12
/// bytes. The limit may change between frames (it grows after login).
public struct FrameDecoder: Sendable {
    public var maxPayload: UInt32
    private var buffer: [UInt8] = []
    private var start = 0
    private var pendingHeader: FrameHeader?

    public init(maxPayload: UInt32) { self.maxPayload = maxPayload }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - start }

    /// True while a frame's header has been read but its payload is still arriving.
    public var isInsideFrame: Bool { pendingHeader != nil || bufferedByteCount > 0 }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes from a raw buffer (a server decrypts into shared scratch memory).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        buffer.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// Frees the buffer's storage when no bytes are waiting in it (a connection going quiet).
    public mutating func releaseMemoryIfEmpty() {
        guard bufferedByteCount == 0, pendingHeader == nil, buffer.capacity > 0 else { return }
        buffer = []
        start = 0
    }

    /// The next complete frame, nil when more bytes are needed.
    public mutating func nextFrame() throws(WireError) -> Frame? {
        if pendingHeader == nil {
            guard bufferedByteCount >= FrameHeader.size else { return nil }
            let header = FrameHeader(bytes: buffer, at: start)
            lastHeaderRequestID = header.requestID
            guard header.length <= maxPayload else {
                throw WireError.frameTooLarge(length: header.length, limit: maxPayload)
            }
            guard header.flags == 0 else { throw WireError.reservedFlags(header.flags) }
            start += FrameHeader.size
            pendingHeader = header
        }
        guard let header = pendingHeader, bufferedByteCount >= Int(header.length) else { return nil }
        let end = start + Int(header.length)
        if start == FrameHeader.size && end == buffer.count && header.length >= 4096 {
            // The buffer holds exactly this one frame (a posted image, typically): hand the storage
            // over as the frame's wire bytes rather than copying the payload out of it.
            let frame = Frame(wireBytes: buffer, header: header)
            buffer = []
            start = 0
            pendingHeader = nil
            return frame
        }
        let payload = Array(buffer[start..<end])
        start = end
        pendingHeader = nil
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return Frame(type: header.type, requestID: header.requestID, payload: payload)
    }

    /// The request id of the frame being read, when its header has arrived.
    public var currentRequestID: UInt32? { pendingHeader?.requestID }

    /// The request id of the last header read, accepted or not: an error about a refused
    /// header (too large, bad flags) answers that frame.
    public private(set) var lastHeaderRequestID: UInt32?
}
