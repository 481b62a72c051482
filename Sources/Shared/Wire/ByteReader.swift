/// Reads the fields `ByteWriter` writes, checking every length against what is left before
/// allocating, and requiring that a message consumes its payload exactly.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    private var offset: Int
    private let end: Int
    /// The protocol version the message was written in (a record whose layout changed between
    /// versions reads the one its connection speaks).
    public let protocolVersion: UInt16

    /// Reads `bytes` from `start` on (a payload behind a frame header, without copying it out).
    public init(_ bytes: [UInt8], from start: Int = 0, protocolVersion: UInt16 = ProtocolConstants.current) {
        precondition(start >= 0 && start <= bytes.count, "start outside the bytes")
        self.bytes = bytes
        offset = start
        end = bytes.count
        self.protocolVersion = protocolVersion
    }

    public var remaining: Int { end - offset }

    private mutating func take(_ count: Int, _ field: StaticString) throws(WireError) -> Range<Int> {
        guard count >= 0, count <= remaining else {
            throw WireError.malformed("\(field): needs \(count) bytes, \(remaining) left")
        }
        defer { offset += count }
        return offset..<(offset + count)
    }

    public mutating func readUInt8(_ field: StaticString = "u8") throws(WireError) -> UInt8 {
        bytes[try take(1, field).lowerBound]
    }

    public mutating func readUInt16(_ field: StaticString = "u16") throws(WireError) -> UInt16 {
        let r = try take(2, field)
        return UInt16(bytes[r.lowerBound]) << 8 | UInt16(bytes[r.lowerBound + 1])
    }

    public mutating func readUInt32(_ field: StaticString = "u32") throws(WireError) -> UInt32 {
        let r = try take(4, field)
        var value: UInt32 = 0
        for i in r { value = value << 8 | UInt32(bytes[i]) }
        return value
    }

    public mutating func readUInt64(_ field: StaticString = "u64") throws(WireError) -> UInt64 {
        let r = try take(8, field)
        var value: UInt64 = 0
        for i in r { value = value << 8 | UInt64(bytes[i]) }
        return value
    }

    public mutating func readInt64(_ field: StaticString = "i64") throws(WireError) -> Int64 {
        Int64(bitPattern: try readUInt64(field))
    }

    /// An IEEE 754 binary64; NaN and infinities are malformed (no field allows them).
    public mutating func readDouble(_ field: StaticString = "f64") throws(WireError) -> Double {
        let value = Double(bitPattern: try readUInt64(field))
        guard value.isFinite else { throw WireError.malformed("\(field): not a finite number") }
        return value
    }

    public mutating func readBool(_ field: StaticString = "bool") throws(WireError) -> Bool {
        switch try readUInt8(field) {
        case 0: return false
        case 1: return true
        case let other: throw WireError.malformed("\(field): boolean byte \(other) is neither 0 nor 1")
        }
    }

    /// A u16-length UTF-8 string of at most `maxBytes` bytes; invalid UTF-8 is malformed.
    public mutating func readString(_ field: StaticString = "string", maxBytes: Int = Int(UInt16.max)) throws(WireError) -> String {
        let length = Int(try readUInt16(field))
        guard length <= maxBytes else {
            throw WireError.malformed("\(field): \(length) bytes, at most \(maxBytes) allowed")
        }
        let r = try take(length, field)
        guard let string = String(validating: bytes[r], as: UTF8.self) else {
            throw WireError.malformed("\(field): not valid UTF-8")
        }
        return string
    }

    /// A u32-length byte field of at most `maxBytes` bytes.
    public mutating func readBytes(_ field: StaticString = "bytes", maxBytes: Int = Int(UInt32.max)) throws(WireError) -> [UInt8] {
        let length = Int(try readUInt32(field))
        guard length <= maxBytes else {
            throw WireError.malformed("\(field): \(length) bytes, at most \(maxBytes) allowed")
        }
        return Array(bytes[try take(length, field)])
    }

    /// Exactly `count` raw bytes (fixed-size fields).
    public mutating func readRaw(_ count: Int, _ field: StaticString = "raw") throws(WireError) -> [UInt8] {
        Array(bytes[try take(count, field)])
    }

    /// A u32-count array. The count is checked against the bytes left (each element takes at
    /// least `minElementBytes`) before any storage is reserved, so a forged count cannot make
    /// the reader allocate.
    public mutating func readArray<T>(
        _ field: StaticString = "array", minElementBytes: Int, maxCount: Int = Int(UInt32.max),
        _ element: (inout ByteReader) throws(WireError) -> T
    ) throws(WireError) -> [T] {
        let count = Int(try readUInt32(field))
        guard count <= maxCount, count <= remaining / max(minElementBytes, 1) else {
            throw WireError.malformed("\(field): count \(count) does not fit in \(remaining) bytes")
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try element(&self)) }
        return values
    }

    /// Trailing bytes after a message are a protocol error.
    public func finish(_ message: StaticString) throws(WireError) {
        guard remaining == 0 else { throw WireError.malformed("\(message): \(remaining) unexpected trailing bytes") }
    }
}
