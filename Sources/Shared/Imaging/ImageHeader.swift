import Wire

/// What the first bytes of an image file say: its format and dimensions.
///
/// Parsing reads only the header (PNG signature and IHDR; JPEG markers up to the first frame
/// header) and never decodes pixels, so it is cheap enough to run on every upload.
public struct ImageHeader: Sendable, Equatable {
    /// PNG or JPEG.
    public let format: ImageFormat
    /// Width in pixels, 1...2^31-1.
    public let width: Int
    /// Height in pixels, 1...2^31-1.
    public let height: Int

    /// A header with the given fields (tests and callers that already know them).
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Reads the header of a PNG or JPEG file.
    ///
    /// Throws `.truncated` when the bytes end inside the header and `.notAnImage` for anything
    /// else that is not a well-formed PNG or JPEG header (other formats, bad CRC, bad fields).
    public static func parse(_ bytes: some Collection<UInt8>) throws(ImageError) -> ImageHeader {
        var reader = HeaderReader(bytes)
        switch reader.peek() {
        case 0x89: return try parsePNG(&reader)
        case 0xFF: return try parseJPEG(&reader)
        default: throw .notAnImage
        }
    }

    // MARK: PNG

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let ihdrType: [UInt8] = Array("IHDR".utf8)

    private static func parsePNG<Bytes>(_ reader: inout HeaderReader<Bytes>) throws(ImageError) -> ImageHeader {
        for expected in pngSignature {
            guard try reader.byte() == expected else { throw .notAnImage }
        }
        // The PNG spec requires IHDR first, with exactly 13 bytes of data.
        guard try reader.uint32() == 13 else { throw .notAnImage }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(17)
        for expected in ihdrType {
            let byte = try reader.byte()
            guard byte == expected else { throw .notAnImage }
            chunk.append(byte)
        }
        for _ in 0..<13 { chunk.append(try reader.byte()) }
        let storedCRC = try reader.uint32()
        guard PNGChunkCRC.checksum(chunk) == storedCRC else { throw .notAnImage }

        let width = Int(chunk[4]) << 24 | Int(chunk[5]) << 16 | Int(chunk[6]) << 8 | Int(chunk[7])
        let height = Int(chunk[8]) << 24 | Int(chunk[9]) << 16 | Int(chunk[10]) << 8 | Int(chunk[11])
        let (bitDepth, colourType) = (chunk[12], chunk[13])
        let (compression, filter, interlace) = (chunk[14], chunk[15], chunk[16])
        let maximum = Int(Int32.max)
        guard (1...maximum).contains(width), (1...maximum).contains(height) else { throw .notAnImage }
        guard isValidPNG(bitDepth: bitDepth, colourType: colourType) else { throw .notAnImage }
        guard compression == 0, filter == 0, interlace <= 1 else { throw .notAnImage }
        return ImageHeader(format: .png, width: width, height: height)
    }

    /// The bit depth / colour type pairs the PNG spec allows (table 11.1).
    private static func isValidPNG(bitDepth: UInt8, colourType: UInt8) -> Bool {
        switch colourType {
        case 0: [1, 2, 4, 8, 16].contains(bitDepth) // grey
        case 2, 4, 6: bitDepth == 8 || bitDepth == 16 // RGB, grey + alpha, RGBA
        case 3: [1, 2, 4, 8].contains(bitDepth) // palette
        default: false
        }
    }

    // MARK: JPEG

    private static func parseJPEG<Bytes>(_ reader: inout HeaderReader<Bytes>) throws(ImageError) -> ImageHeader {
        guard try reader.byte() == 0xFF, try reader.byte() == 0xD8 else { throw .notAnImage }
        while true {
            guard try reader.byte() == 0xFF else { throw .notAnImage }
            var marker = try reader.byte()
            // Any number of 0xFF fill bytes may precede a marker.
            while marker == 0xFF { marker = try reader.byte() }
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue // TEM and RSTn stand alone, without a length
            case 0x00, 0xD8, 0xD9, 0xDA:
                // A stuffed zero, a second SOI, or EOI/SOS before any frame header.
                throw .notAnImage
            default:
                break
            }
            let length = Int(try reader.uint16())
            guard length >= 2 else { throw .notAnImage }
            guard isStartOfFrame(marker) else {
                try reader.skip(length - 2)
                continue
            }
            // SOFn: precision, height, width, component count, 3 bytes per component.
            guard length >= 8 else { throw .notAnImage }
            let precision = try reader.byte()
            let height = Int(try reader.uint16())
            let width = Int(try reader.uint16())
            let components = Int(try reader.byte())
            guard (2...16).contains(precision), (1...4).contains(components),
                length >= 8 + 3 * components
            else { throw .notAnImage }
            try reader.skip(length - 8)
            // Height 0 means "defined later by a DNL marker", which libjpeg does not support.
            guard width > 0, height > 0 else { throw .notAnImage }
            return ImageHeader(format: .jpeg, width: width, height: height)
        }
    }

    /// SOF0-3, 5-7, 9-11, 13-15; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}

/// A forward-only cursor that throws `.truncated` instead of reading past the end.
private struct HeaderReader<Bytes: Collection<UInt8>> {
    private let bytes: Bytes
    private var position: Bytes.Index

    init(_ bytes: Bytes) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    func peek() -> UInt8? {
        position < bytes.endIndex ? bytes[position] : nil
    }

    mutating func byte() throws(ImageError) -> UInt8 {
        guard position < bytes.endIndex else { throw .truncated }
        defer { position = bytes.index(after: position) }
        return bytes[position]
    }

    mutating func uint16() throws(ImageError) -> UInt16 {
        UInt16(try byte()) << 8 | UInt16(try byte())
    }

    mutating func uint32() throws(ImageError) -> UInt32 {
        UInt32(try uint16()) << 16 | UInt32(try uint16())
    }

    mutating func skip(_ count: Int) throws(ImageError) {
        guard let next = bytes.index(position, offsetBy: count, limitedBy: bytes.endIndex) else {
            throw .truncated
        }
        position = next
    }
}
