/// RFC 4180 CSV from memory: comma-separated fields, optionally in double quotes (`""` inside
/// quotes is one quote, and quoted fields may hold commas and line breaks), LF or CRLF line
/// ends, an optional UTF-8 byte order mark. Used for the bundled gazetteer and for the index
/// of a photo folder, which a person may have written by hand or exported from a spreadsheet.
struct CSVReader {
    /// One record and the line it starts on (1-based), for error messages.
    struct Record: Sendable, Equatable {
        var line: Int
        var fields: [String]
    }

    /// Why the bytes are not CSV, with the line where it went wrong.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        var line: Int
        var reason: String
        var description: String { "line \(line): \(reason)" }
    }

    /// Largest number of fields in one record, so a stray binary file cannot make us build
    /// millions of strings before we notice.
    var maxFields = 64
    /// Largest field, in bytes.
    var maxFieldBytes = 64 * 1024

    /// Every non-blank record in `bytes`, in order.
    func records(_ bytes: [UInt8]) throws(Failure) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var index = 0
        let quote = UInt8(ascii: "\"")
        let comma = UInt8(ascii: ",")
        let lf = UInt8(ascii: "\n")
        let cr = UInt8(ascii: "\r")
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }

        func finishField() throws(Failure) {
            guard fields.count < maxFields else { throw Failure(line: recordLine, reason: "more than \(maxFields) fields") }
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        func finishRecord() {
            // A blank line is one empty field: skip it rather than report a short record.
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields.removeAll(keepingCapacity: true)
        }
        func append(_ byte: UInt8) throws(Failure) {
            guard field.count < maxFieldBytes else { throw Failure(line: line, reason: "a field is longer than \(maxFieldBytes) bytes") }
            field.append(byte)
        }

        var atFieldStart = true
        var sawAnything = false
        while index < bytes.count {
            let byte = bytes[index]
            if atFieldStart && byte == quote {
                // Quoted field: runs to the next quote that is not doubled.
                index += 1
                let openedOn = line
                var closed = false
                while index < bytes.count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < bytes.count && bytes[index + 1] == quote {
                            try append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    if inner == lf { line += 1 }
                    try append(inner)
                    index += 1
                }
                guard closed else { throw Failure(line: openedOn, reason: "a quoted field is never closed") }
                // After the closing quote only a separator or the end of the record may follow.
                if index < bytes.count {
                    let next = bytes[index]
                    let endsLine =
                        next == lf || (next == cr && index + 1 < bytes.count && bytes[index + 1] == lf)
                        || (next == cr && index + 1 == bytes.count)
                    guard next == comma || endsLine else {
                        throw Failure(line: line, reason: "unexpected character after a closing quote")
                    }
                }
                atFieldStart = false
                sawAnything = true
                continue
            }
            switch byte {
            case comma:
                try finishField()
                atFieldStart = true
                sawAnything = true
                index += 1
            case lf, cr:
                if byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf { index += 1 }
                try finishField()
                finishRecord()
                index += 1
                line += 1
                recordLine = line
                atFieldStart = true
                sawAnything = false
            default:
                try append(byte)
                atFieldStart = false
                sawAnything = true
                index += 1
            }
        }
        if sawAnything || !field.isEmpty {
            try finishField()
            finishRecord()
        }
        return records
    }
}
