/// A message with a fixed type number and a byte-exact payload encoding.
public protocol WireMessage: Sendable {
    static var type: MessageType { get }
    init(from reader: inout ByteReader) throws(WireError)
    func encode(into writer: inout ByteWriter)
}

/// Upper bounds for variable-length fields, checked by the decoder before allocating.
public enum FieldLimits {
    public static let clientName = 64
    public static let username = 64
    public static let password = 1024
    public static let classCode = 256
    public static let token = 256
    public static let feedName = 256
    public static let errorMessage = 1024
    public static let statisticName = 64
    /// An IP address as text (the longest IPv6 form is 45 characters).
    public static let address = 64
    /// An audit log entry's actor, action, target or result.
    public static let auditText = 512
    /// A report's, a suspension's or a rejection's reason (200 characters of up to 4 bytes each).
    public static let reason = 800
    /// A roster's display name (80 characters of up to 4 bytes each).
    public static let displayName = 320
    /// A class's handle (`cs193p-f26`: 2 to 32 of `a-z 0-9 -`, with room for a wrong one to be named).
    public static let classHandle = 64
    /// A class's name (100 characters of up to 4 bytes each).
    public static let className = 400
}

/// Protocol constants.
public enum ProtocolConstants {
    /// The first 8 payload bytes of every Hello: `\x89 S N A P \r \n \x1a`. The high first byte
    /// and the CR LF SUB tail make text protocols and mangled transfers fail at once.
    public static let magic: [UInt8] = [0x89, 0x53, 0x4E, 0x41, 0x50, 0x0D, 0x0A, 0x1A]
    /// Every protocol version this code speaks (docs/PROTOCOL.md: today's layouts are version 5,
    /// which adds classes to version 4's without changing any of its messages; version 3 lacks
    /// what version 4 added to accounts, rejections and exports, version 2 differs
    /// from 3 only in what it says of a snap awaiting approval, version 1 is the appendix's). A
    /// change to an existing message's layout or meaning is a new version, and the previous ones
    /// stay served.
    public static let versions: ClosedRange<UInt16> = 1...5
    /// The newest version, the one this code's layouts are written for.
    public static var current: UInt16 { versions.upperBound }
    /// The largest frame a peer may send before its Hello is accepted.
    public static let helloFrameLimit: UInt32 = 1024
}

extension FieldLimits {
    public static let photoTitle = 1024
    public static let photoTags = 4096
    public static let placeName = 512
    public static let providerError = 1024
    public static let movieTitle = 256
    public static let movieGenre = 128
}
