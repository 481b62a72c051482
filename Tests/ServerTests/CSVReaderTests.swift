import Testing

@testable import Server

@Suite("CSV reader")
struct CSVReaderTests {
    func records(_ text: String) throws(CSVReader.Failure) -> [CSVReader.Record] {
        try CSVReader().records(Array(text.utf8))
    }

    @Test("quoted fields keep commas, doubled quotes and line breaks, and records know their first line")
    func quoting() throws {
        let parsed = try records("a,\"b, c\",\"say \"\"hi\"\"\"\n\"two\nlines\",x,\n\nlast,,\"\"")
        #expect(
            parsed == [
                CSVReader.Record(line: 1, fields: ["a", "b, c", "say \"hi\""]),
                CSVReader.Record(line: 2, fields: ["two\nlines", "x", ""]),
                CSVReader.Record(line: 5, fields: ["last", "", ""]),
            ])
    }

    @Test("CRLF, a lone CR and a byte order mark are accepted; blank lines are skipped")
    func lineEnds() throws {
        #expect(
            try records("\u{FEFF}h1,h2\r\n1,2\r\n\r\n3,4\r5,6").map(\.fields) == [["h1", "h2"], ["1", "2"], ["3", "4"], ["5", "6"]])
    }

    @Test("an unclosed quote, text after a closing quote and oversized input are errors with their line")
    func errors() {
        #expect(throws: CSVReader.Failure(line: 2, reason: "a quoted field is never closed")) { try records("ok\n\"open,1\n2\n") }
        #expect(throws: CSVReader.Failure(line: 1, reason: "unexpected character after a closing quote")) { try records("\"a\"b,c\n") }
        #expect(throws: CSVReader.Failure(line: 1, reason: "more than 3 fields")) {
            try CSVReader(maxFields: 3, maxFieldBytes: 10).records(Array("1,2,3,4\n".utf8))
        }
        #expect(throws: CSVReader.Failure(line: 1, reason: "a field is longer than 10 bytes")) {
            try CSVReader(maxFields: 3, maxFieldBytes: 10).records(Array("12345678901\n".utf8))
        }
    }
}
