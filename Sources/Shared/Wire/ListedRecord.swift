/// A record that lists carry (a feed, a snap, a user...). A list's count is bounded before anything
/// is allocated by the fewest bytes one record takes, and that size is measured by the record's own
/// `encode` on its smallest value, so it cannot drift from the layout.
protocol ListedRecord {
    /// The record with every number zero and every text and list empty: its encoding is the shortest.
    static var smallest: Self { get }
    init(from r: inout ByteReader) throws(WireError)
    func encode(into w: inout ByteWriter)
}

extension ListedRecord {
    /// The fewest bytes one record takes in protocol `version`.
    static func minimumEncodedSize(in version: UInt16) -> Int {
        var writer = ByteWriter(capacity: 64, protocolVersion: version)
        smallest.encode(into: &writer)
        return writer.bytes.count
    }
}

extension ByteReader {
    /// A count, then that many records; the count is refused before allocation when the bytes
    /// left could not hold that many of the record's smallest encoding.
    mutating func readRecords<Record: ListedRecord>(_ field: StaticString, of _: Record.Type) throws(WireError) -> [Record] {
        try readArray(field, minElementBytes: Record.minimumEncodedSize(in: protocolVersion)) {
            (r: inout ByteReader) throws(WireError) in try Record(from: &r)
        }
    }
}

extension ByteWriter {
    /// A count, then each record in the writer's protocol version.
    mutating func writeRecords<Record: ListedRecord>(_ records: [Record]) {
        writeArray(records) { $1.encode(into: &$0) }
    }
}
