import Imaging

/// Pictures out of FFmpeg's `image2pipe` PPM stream: binary PPMs (`P6`, 8 bits a channel) one
/// after another, read a piece at a time. The size in each header is checked against the
/// camera's ceiling before anything is allocated for it.
struct PPMFrameDecoder {
    /// The largest frame accepted, a side: FFmpeg is asked for 640x480 at most, so this leaves
    /// room without letting a broken stream make us hold frames of tens of megabytes.
    static let maxSide = 1920
    /// The longest header accepted: FFmpeg writes about 15 bytes; endless whitespace or a
    /// comment without an end is not a picture on its way.
    static let maxHeader = 256

    struct Malformed: Error, Equatable {
        let reason: String
    }

    private var buffer: [UInt8] = []
    private var start = 0

    /// Adds `bytes` and returns the newest complete picture among them (older ones finished in
    /// the same piece are dropped: only the newest is worth showing) and how many were finished.
    mutating func feed(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> (newest: RGBImage?, finished: Int) {
        buffer += bytes
        var newest: RGBImage?
        var finished = 0
        while let (header, width, height) = try completeHeader() {
            let length = width * height * 3
            guard buffer.count - start - header >= length else { break }
            let from = start + header
            newest = RGBImage(width: width, height: height, pixels: Array(buffer[from..<from + length]))
            start = from + length
            finished += 1
        }
        if start > 0 && (start == buffer.count || start > 1 << 20) {
            buffer.removeFirst(start)
            start = 0
        }
        return (newest, finished)
    }

    /// Bytes held for an unfinished picture.
    var pending: Int { buffer.count - start }

    /// `header()`, refusing one still incomplete after `maxHeader` bytes.
    private func completeHeader() throws(Malformed) -> (length: Int, width: Int, height: Int)? {
        guard let found = try header() else {
            if buffer.count - start > Self.maxHeader { throw Malformed(reason: "no PPM header within \(Self.maxHeader) bytes") }
            return nil
        }
        return found
    }

    /// The header at `start`: its length and the picture's size, or nil while it is incomplete.
    private func header() throws(Malformed) -> (length: Int, width: Int, height: Int)? {
        var index = start
        guard buffer.count - index >= 2 else { return nil }
        guard buffer[index] == UInt8(ascii: "P"), buffer[index + 1] == UInt8(ascii: "6") else {
            throw Malformed(reason: "not a binary PPM picture")
        }
        index += 2
        var fields: [Int] = []
        while fields.count < 3 {
            // Whitespace and comments, then a decimal number.
            while index < buffer.count {
                if buffer[index] == UInt8(ascii: "#") {
                    while index < buffer.count && buffer[index] != 10 { index += 1 }
                } else if Self.isSpace(buffer[index]) {
                    index += 1
                } else {
                    break
                }
            }
            var value = 0
            var digits = 0
            while index < buffer.count, buffer[index] >= 48, buffer[index] <= 57 {
                value = value * 10 + Int(buffer[index] - 48)
                digits += 1
                index += 1
                guard digits <= 6 else { throw Malformed(reason: "a PPM header number is too long") }
            }
            guard index < buffer.count else { return nil }
            guard digits > 0, Self.isSpace(buffer[index]) else { throw Malformed(reason: "a bad PPM header") }
            fields.append(value)
        }
        // One whitespace byte ends the header.
        index += 1
        let (width, height, maxValue) = (fields[0], fields[1], fields[2])
        guard maxValue == 255 else { throw Malformed(reason: "PPM with \(maxValue) levels; 255 expected") }
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            throw Malformed(reason: "a \(width)x\(height) frame is larger than \(Self.maxSide) a side")
        }
        return (index - start, width, height)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || (9...13).contains(byte) }
}
