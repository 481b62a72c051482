/// One frame: a message type, the request id it belongs to, and its payload bytes.
public struct Frame: Sendable, Equatable {
    public var type: UInt16
    public var requestID: UInt32
    public var payload: [UInt8]

    public init(type: UInt16, requestID: UInt32, payload: [UInt8]) {
        self.type = type; self.requestID = requestID; self.payload = payload
    }

    /// The frame's bytes on the wire: header then payload.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: FrameHeader.size + payload.count)
        FrameHeader(length: UInt32(payload.count), type: type, requestID: requestID).encode(into: &writer)
        writer.writeRaw(payload)
        return writer.bytes
    }

    /// Encodes a message into a frame.
    public init<M: WireMessage>(_ message: M, requestID: UInt32) {
        var writer = ByteWriter()
        message.encode(into: &writer)
        self.init(type: M.type.rawValue, requestID: requestID, payload: writer.bytes)
    }

    /// Decodes the payload as `M`, which must be this frame's type and consume it exactly.
    public func decode<M: WireMessage>(_: M.Type = M.self) throws(WireError) -> M {
        guard type == M.type.rawValue else {
            throw WireError.malformed("expected \(M.type) but frame has type 0x\(String(type, radix: 16))")
        }
        var reader = ByteReader(payload)
        let message = try M(from: &reader)
        try reader.finish(M.type.name)
        return message
    }
}
