/// Appends big-endian integers, length-prefixed strings and byte fields to a growing buffer.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]
    /// The protocol version the message is written in (a record whose layout changed between
    /// versions writes the one its connection speaks).
    public let protocolVersion: UInt16

    public init(capacity: Int = 64, protocolVersion: UInt16 = ProtocolConstants.current) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.protocolVersion = protocolVersion
    }

    public mutating func write(_ value: UInt8) { bytes.append(value) }

    public mutating func write(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    public mutating func write(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    public mutating func write(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    public mutating func write(_ value: Int64) { write(UInt64(bitPattern: value)) }

    public mutating func write(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// An IEEE 754 binary64, as its bit pattern in a u64.
    public mutating func write(_ value: Double) { write(value.bitPattern) }

    /// A string: u16 byte length, then UTF-8. Longer strings are a programming error.
    public mutating func write(_ value: String) {
        let utf8 = Array(value.utf8)
        precondition(utf8.count <= Int(UInt16.max), "string field longer than 65535 bytes")
        write(UInt16(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// A byte field: u32 length, then the bytes.
    public mutating func writeBytes(_ value: some Collection<UInt8>) {
        precondition(value.count <= Int(UInt32.max), "byte field longer than 4 GiB")
        write(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// Raw bytes with no length prefix (fixed-size fields such as the magic and digests).
    public mutating func writeRaw(_ value: some Collection<UInt8>) { bytes.append(contentsOf: value) }

    /// An array: u32 element count, then each element.
    public mutating func writeArray<T>(_ values: [T], _ element: (inout ByteWriter, T) -> Void) {
        write(UInt32(values.count))
        for value in values { element(&self, value) }
    }
}
