/// A payload or frame that does not follow `docs/PROTOCOL.md`.
public enum WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not form the message their type announces.
    case malformed(String)
    /// A frame header announced more bytes than the current limit allows.
    case frameTooLarge(length: UInt32, limit: UInt32)
    /// The header's reserved flags field was not zero.
    case reservedFlags(UInt16)
    /// A message type this side does not know.
    case unknownType(UInt16)

    public var description: String {
        switch self {
        case .malformed(let why): return "malformed message: \(why)"
        case .frameTooLarge(let length, let limit): return "frame of \(length) bytes exceeds the limit of \(limit)"
        case .reservedFlags(let flags): return "reserved flags field must be 0, got \(flags)"
        case .unknownType(let type): return "unknown message type 0x\(String(type, radix: 16, uppercase: true))"
        }
    }

    /// The wire error code that reports this to the peer.
    public var code: ErrorCode {
        switch self {
        case .malformed, .reservedFlags: return .malformedFrame
        case .frameTooLarge: return .frameTooLarge
        case .unknownType: return .unknownMessageType
        }
    }
}
