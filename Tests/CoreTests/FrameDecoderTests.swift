import Testing

@testable import Wire

@Suite struct FrameDecoderTests {
    let frames: [Frame] = [
        Frame(Hello(clientName: "t"), requestID: 1),
        Frame(Ping(), requestID: 2),
        Frame(PostSnap(feed: "Memes", image: Array(repeating: 7, count: 300)), requestID: 3),
    ]

    @Test func framesSplitAtEveryOffsetDecodeTheSame() throws {
        let stream = frames.flatMap { $0.encoded() }
        for split in 0...stream.count {
            var decoder = FrameDecoder(maxPayload: 4096)
            var out: [Frame] = []
            decoder.append(stream[..<split])
            while let f = try decoder.nextFrame() { out.append(f) }
            decoder.append(stream[split...])
            while let f = try decoder.nextFrame() { out.append(f) }
            #expect(out == frames, "split at \(split)")
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test func byteAtATimeDecodingGivesTheSameFrames() throws {
        var decoder = FrameDecoder(maxPayload: 4096)
        var out: [Frame] = []
        for byte in frames.flatMap({ $0.encoded() }) {
            decoder.append([byte])
            while let f = try decoder.nextFrame() { out.append(f) }
        }
        #expect(out == frames)
    }

    @Test func anOversizedHeaderIsRejectedBeforeItsPayloadArrives() {
        var decoder = FrameDecoder(maxPayload: 1024)
        // Header claims 4 GiB; no payload follows.
        decoder.append([0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09])
        #expect(throws: WireError.frameTooLarge(length: 0xFFFF_FFFF, limit: 1024)) { try decoder.nextFrame() }
    }

    @Test func nonZeroFlagsAreMalformed() {
        var decoder = FrameDecoder(maxPayload: 1024)
        decoder.append([0, 0, 0, 0, 0x00, 0x04, 0x00, 0x01, 0, 0, 0, 1])
        #expect(throws: WireError.reservedFlags(1)) { try decoder.nextFrame() }
    }

    @Test func anIncompleteFrameWaitsForMoreBytes() throws {
        var decoder = FrameDecoder(maxPayload: 1024)
        let bytes = Frame(Login(username: "ada", password: "secret-password"), requestID: 5).encoded()
        decoder.append(bytes.dropLast())
        #expect(try decoder.nextFrame() == nil)
        #expect(decoder.isInsideFrame)
        #expect(decoder.currentRequestID == 5)
        decoder.append(bytes.suffix(1))
        #expect(try decoder.nextFrame()?.requestID == 5)
    }
}
