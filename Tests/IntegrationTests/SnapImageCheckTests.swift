import Client
import Foundation
import Imaging
import TestSupport
import Testing

/// A snap's image is decoded whole when it is posted: what the viewer's client could not draw is
/// refused then, before anyone spends their one view on it.
@Suite struct SnapImageCheckTests {
    /// A PNG's signature and IHDR chunk: a valid header whatever follows.
    private static let pngHeaderLength = 8 + 25

    /// The sample's valid header followed by random bytes, as long as the sample.
    private func pngWithGarbageData() -> [UInt8] {
        let sample = TestImages.sample(4)
        var random = SeededGenerator(seed: 0x6A5BA6E)
        return Array(sample.prefix(Self.pngHeaderLength)) + random.bytes(sample.count - Self.pngHeaderLength)
    }

    /// The sample with one byte of its image data changed, so its chunk's CRC no longer matches.
    private func pngWithDamagedData() -> [UInt8] {
        var damaged = TestImages.sample(4)
        damaged[damaged.count / 2] ^= 0x5A
        return damaged
    }

    /// A JPEG cut off after 60 % of its bytes, with its end marker put back.
    private func truncatedJPEG() throws -> [UInt8] {
        let jpeg = try ImageCodec.encodeJPEG(ImageCodec.decode(TestImages.sample(4)))
        return Array(jpeg.prefix(jpeg.count * 6 / 10)) + [0xFF, 0xD9]
    }

    @Test func anImageWhoseDataDoesNotDecodeIsRefusedAndNothingIsStored() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let broken = [
            ("garbage after a PNG header", pngWithGarbageData()), ("a PNG with a bad CRC", pngWithDamagedData()),
            ("a truncated JPEG", try truncatedJPEG()),
        ]
        for (what, bytes) in broken {
            #expect(try ImageHeader.parse(bytes).width > 0, "\(what) has a valid header")
            let error = clientError { _ = try alice.post(feed: "Memes", image: bytes) }
            #expect(error?.serverCode == .unsupportedImage, "\(what): \(String(describing: error))")
            let message = error?.message ?? ""
            #expect(message.contains("could not be decoded") || message.contains("incomplete"), "\(what) says why: \(message)")
        }
        #expect(try alice.snaps(feed: nil).snaps.isEmpty, "nothing was stored")

        let png = try alice.post(feed: "Memes", image: TestImages.sample(4))
        let jpeg = try alice.post(feed: "Memes", image: ImageCodec.encodeJPEG(ImageCodec.decode(TestImages.sample(4))))
        #expect(try alice.snaps(feed: nil).snaps.map(\.id).sorted() == [png.id, jpeg.id], "whole images still post")
    }

    @Test func byDefaultTheServerRefusesAPNGThatDeclaresFortyMillionPixels() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        // Within the largest width and height, and a few bytes that would make every viewer's
        // client allocate 120 MB of pixels (and as much again for a copy).
        let bomb = TestImages.bombPNG(width: 6400, height: 6250)
        let error = clientError { _ = try alice.post(feed: "Memes", image: bomb) }
        #expect(error?.serverCode == .imageDimensionsTooLarge, "\(String(describing: error))")
        #expect(alice.welcome.maxImagePixels == 4096 * 4096)
        #expect(try alice.snaps(feed: nil).snaps.isEmpty)
    }
}
