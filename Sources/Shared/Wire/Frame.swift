/// One frame: a message type, the request id it belongs to, and its payload bytes.
public struct Frame: Sendable, Equatable {
    public var type: UInt16
    public var requestID: UInt32

    /// The payload; for a frame made from a message, the complete wire bytes (header first).
    ///
    /// Why: a reply carrying a 100 KB image would otherwise be copied twice on its way out, once
    /// into the payload and once more into header-plus-payload. A frame made from a message
    /// encodes straight into its wire form, so `encoded()` hands the same storage on.
    private var storage: [UInt8]
    /// `storage` starts with a header valid for the type and request id the frame was made with.
    private var storageHasHeader: Bool

    /// The payload bytes.
    public var payload: [UInt8] {
        get { storageHasHeader ? Array(storage[FrameHeader.size...]) : storage }
        set {
            storage = newValue
            storageHasHeader = false
        }
    }

    public init(type: UInt16, requestID: UInt32, payload: [UInt8]) {
        self.type = type
        self.requestID = requestID
        storage = payload
        storageHasHeader = false
    }

    /// A frame over its complete wire bytes (a decoder hands its buffer over instead of copying
    /// the payload out of it); the header must describe exactly these bytes.
    init(wireBytes: [UInt8], header: FrameHeader) {
        precondition(wireBytes.count == FrameHeader.size + Int(header.length), "header does not describe the bytes")
        type = header.type
        requestID = header.requestID
        storage = wireBytes
        storageHasHeader = true
    }

    /// Encodes a message into a frame, header included, in protocol `version`'s layout.
    public init<M: WireMessage>(_ message: M, requestID: UInt32, version: UInt16 = ProtocolConstants.current) {
        var writer = ByteWriter(protocolVersion: version)
        FrameHeader(length: 0, type: M.type.rawValue, requestID: requestID).encode(into: &writer)
        message.encode(into: &writer)
        var bytes = writer.bytes
        // Drop the writer's reference first, so patching the length below happens in place.
        writer = ByteWriter(capacity: 0, protocolVersion: version)
        let length = bytes.count - FrameHeader.size
        bytes.withUnsafeMutableBufferPointer { Self.writeLength(length, into: $0) }
        type = M.type.rawValue
        self.requestID = requestID
        storage = bytes
        storageHasHeader = true
    }

    /// Patches the header's length field (its first four bytes, big-endian), written as 0 while
    /// the frame's size was not yet known.
    private static func writeLength(_ length: Int, into frame: UnsafeMutableBufferPointer<UInt8>) {
        let length = UInt32(length)
        frame[0] = UInt8(truncatingIfNeeded: length >> 24)
        frame[1] = UInt8(truncatingIfNeeded: length >> 16)
        frame[2] = UInt8(truncatingIfNeeded: length >> 8)
        frame[3] = UInt8(truncatingIfNeeded: length)
    }

    /// The wire bytes of a message whose last field is a byte field (u32 length, then `count`
    /// bytes), up to those bytes: the header (its length counting the bytes that follow), every
    /// field before them (`fields` encodes them), and their u32 length. The frame is these bytes
    /// followed by the `count` bytes.
    ///
    /// Why: a server sending a 100 KB image it holds in memory sends it after this head as it is,
    /// instead of copying it into a frame of its own (docs/benchmarks.md).
    public static func wireHead(
        type: MessageType, requestID: UInt32, version: UInt16 = ProtocolConstants.current,
        fields: (inout ByteWriter) -> Void, trailingByteCount count: Int
    ) -> [UInt8] {
        precondition(count >= 0 && count <= Int(UInt32.max), "byte field longer than 4 GiB")
        var writer = ByteWriter(capacity: 256, protocolVersion: version)
        FrameHeader(length: 0, type: type.rawValue, requestID: requestID).encode(into: &writer)
        fields(&writer)
        writer.write(UInt32(count))
        var head = writer.bytes
        // Drop the writer's reference first, so patching the length below happens in place.
        writer = ByteWriter(capacity: 0, protocolVersion: version)
        head.withUnsafeMutableBufferPointer { writeLength($0.count + count - FrameHeader.size, into: $0) }
        return head
    }

    /// The number of payload bytes.
    public var payloadCount: Int { storageHasHeader ? storage.count - FrameHeader.size : storage.count }

    /// Calls `body` with the payload bytes in place (`payload` copies them out when the frame
    /// holds its header too).
    public func withUnsafePayloadBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { raw in
            try body(storageHasHeader ? UnsafeRawBufferPointer(rebasing: raw[FrameHeader.size...]) : raw)
        }
    }

    /// The frame's bytes on the wire: header then payload.
    public func encoded() -> [UInt8] {
        if storageHasHeader && FrameHeader(bytes: storage, at: 0) == header { return storage }
        var writer = ByteWriter(capacity: FrameHeader.size + payloadCount)
        header.encode(into: &writer)
        if storageHasHeader {
            writer.writeRaw(storage[FrameHeader.size...])
        } else {
            writer.writeRaw(storage)
        }
        return writer.bytes
    }

    private var header: FrameHeader {
        FrameHeader(length: UInt32(payloadCount), type: type, requestID: requestID)
    }

    /// Decodes the payload as `M` in protocol `version`'s layout; `M` must be this frame's type,
    /// exist in that version, and consume the payload exactly.
    public func decode<M: WireMessage>(_: M.Type = M.self, version: UInt16 = ProtocolConstants.current) throws(WireError) -> M {
        guard type == M.type.rawValue else {
            throw WireError.malformed("expected \(M.type) but frame has type 0x\(String(type, radix: 16))")
        }
        guard M.type.exists(in: version) else {
            throw WireError.malformed("\(M.type) does not exist in protocol version \(version)")
        }
        var reader = ByteReader(storage, from: storageHasHeader ? FrameHeader.size : 0, protocolVersion: version)
        let message = try M(from: &reader)
        try reader.finish(M.type.name)
        return message
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        lhs.type == rhs.type && lhs.requestID == rhs.requestID && lhs.payloadCount == rhs.payloadCount
            && lhs.payload == rhs.payload
    }
}
