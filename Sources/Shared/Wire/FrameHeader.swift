/// The fixed 12-byte header in front of every frame (big-endian):
/// `u32 payload length | u16 message type | u16 flags (0) | u32 request id`.
public struct FrameHeader: Sendable, Equatable {
    public static let size = 12

    public var length: UInt32
    public var type: UInt16
    public var flags: UInt16
    public var requestID: UInt32

    public init(length: UInt32, type: UInt16, flags: UInt16 = 0, requestID: UInt32) {
        self.length = length
        self.type = type
        self.flags = flags
        self.requestID = requestID
    }

    /// Decodes the first 12 bytes of `bytes` starting at `start`.
    public init(bytes: [UInt8], at start: Int) {
        precondition(bytes.count - start >= Self.size)
        func u16(_ i: Int) -> UInt16 { UInt16(bytes[start + i]) << 8 | UInt16(bytes[start + i + 1]) }
        func u32(_ i: Int) -> UInt32 {
            UInt32(bytes[start + i]) << 24 | UInt32(bytes[start + i + 1]) << 16
                | UInt32(bytes[start + i + 2]) << 8 | UInt32(bytes[start + i + 3])
        }
        length = u32(0)
        type = u16(4)
        flags = u16(6)
        requestID = u32(8)
    }

    public func encode(into writer: inout ByteWriter) {
        writer.write(length)
        writer.write(type)
        writer.write(flags)
        writer.write(requestID)
    }
}
