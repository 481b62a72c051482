import Imaging
import Testing

@testable import Client

@Suite struct PPMFrameDecoderTests {
    /// A `width` x `height` P6 picture whose every byte is `fill` (after `header`, if given).
    static func ppm(width: Int, height: Int, fill: UInt8, header: String? = nil) -> [UInt8] {
        Array((header ?? "P6\n\(width) \(height)\n255\n").utf8) + [UInt8](repeating: fill, count: width * height * 3)
    }

    @Test("a frame split in two at every byte comes out whole once its last byte arrives")
    func everySplit() throws {
        let frame = Self.ppm(width: 3, height: 2, fill: 7)
        for cut in 0...frame.count {
            var decoder = PPMFrameDecoder()
            let first = try decoder.feed(frame[0..<cut])
            let second = try decoder.feed(frame[cut...])
            if cut == frame.count {
                #expect(first.finished == 1 && second.finished == 0, "cut \(cut)")
            } else {
                #expect(first.newest == nil && first.finished == 0, "cut \(cut)")
                #expect(second.finished == 1, "cut \(cut)")
            }
            let image = try #require(first.newest ?? second.newest)
            #expect(image.width == 3 && image.height == 2 && image.pixels == [UInt8](repeating: 7, count: 18), "cut \(cut)")
            #expect(decoder.pending == 0, "cut \(cut)")
        }
    }

    @Test("a stream fed one byte at a time gives every frame in order")
    func byteAtATime() throws {
        let stream =
            Self.ppm(width: 2, height: 2, fill: 1) + Self.ppm(width: 1, height: 3, fill: 2) + Self.ppm(width: 2, height: 1, fill: 3)
        var decoder = PPMFrameDecoder()
        var fills: [UInt8] = []
        for index in stream.indices {
            if let image = try decoder.feed(stream[index...index]).newest { fills.append(image.pixels[0]) }
        }
        #expect(fills == [1, 2, 3])
    }

    @Test("several frames finished in one piece give the newest only, and how many there were")
    func severalInOnePiece() throws {
        var decoder = PPMFrameDecoder()
        let half = Self.ppm(width: 4, height: 4, fill: 9)
        let piece =
            Self.ppm(width: 4, height: 4, fill: 1) + Self.ppm(width: 4, height: 4, fill: 2) + Self.ppm(width: 2, height: 2, fill: 3)
            + half[0..<10]
        let result = try decoder.feed(piece[...])
        #expect(result.finished == 3)
        #expect(result.newest?.width == 2 && result.newest?.pixels.allSatisfy { $0 == 3 } == true)
        #expect(decoder.pending == 10)
        let rest = try decoder.feed(half[10...])
        #expect(rest.finished == 1 && rest.newest?.pixels.allSatisfy { $0 == 9 } == true)
    }

    @Test("comments and any whitespace in the header are skipped")
    func comments() throws {
        var decoder = PPMFrameDecoder()
        let frame = Self.ppm(width: 2, height: 1, fill: 5, header: "P6 # made by a test\n# another\n2\t1\r\n# levels next\n255\n")
        let image = try #require(try decoder.feed(frame[...]).newest)
        #expect(image.width == 2 && image.height == 1 && image.pixels == [5, 5, 5, 5, 5, 5])
    }

    @Test("what is not a binary PPM, or not 8 bits a channel, is refused")
    func refused() {
        for (bytes, reason) in [
            (Array("P3\n1 1\n255\n".utf8), "not a binary PPM"), (Array("GIF89a".utf8), "not a binary PPM"),
            (Array("P6\n1 1\n65535\n".utf8), "65535 levels"), (Array("P6\n1 1\n15\n".utf8), "15 levels"),
            (Array("P6\nx 1\n255\n".utf8), "bad PPM header"), (Array("P6\n1234567 1\n255\n".utf8), "too long"),
        ] {
            var decoder = PPMFrameDecoder()
            let error = #expect(throws: PPMFrameDecoder.Malformed.self, "\(reason)") { try decoder.feed(bytes[...]) }
            #expect(error?.reason.contains(reason) == true, "\(error?.reason ?? "no error")")
        }
    }

    @Test("a frame larger than the ceiling is refused from its header, before its pixels arrive")
    func oversized() throws {
        for header in [
            "P6\n\(PPMFrameDecoder.maxSide + 1) 10\n255\n", "P6\n10 \(PPMFrameDecoder.maxSide + 1)\n255\n", "P6\n999999 999999\n255\n",
            "P6\n0 10\n255\n",
        ] {
            var decoder = PPMFrameDecoder()
            let bytes = Array(header.utf8)
            #expect(throws: PPMFrameDecoder.Malformed.self, "\(header)") { try decoder.feed(bytes[...]) }
        }
        var decoder = PPMFrameDecoder()
        let largest = Array("P6\n\(PPMFrameDecoder.maxSide) \(PPMFrameDecoder.maxSide)\n255\n".utf8)
        #expect(try decoder.feed(largest[...]).finished == 0, "the largest side allowed waits for its pixels")
    }

    @Test("a header that never ends (endless whitespace, a comment without its line end) is refused, not held growing")
    func endlessHeader() throws {
        for start in ["P6\n", "P6 640 ", "P6\n# a comment"] {
            var decoder = PPMFrameDecoder()
            var refused = false
            let filler = Array(repeating: UInt8(start.hasSuffix("comment") ? 120 : 32), count: 64)
            _ = try decoder.feed(Array(start.utf8)[...])
            for _ in 0..<8 where !refused {
                do { _ = try decoder.feed(filler[...]) } catch { refused = true }
            }
            #expect(refused, "\(start.debugDescription) followed by 512 bytes was still waiting")
            #expect(decoder.pending <= PPMFrameDecoder.maxHeader + filler.count)
        }
    }
}
