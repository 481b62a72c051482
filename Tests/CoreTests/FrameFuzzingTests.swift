import Foundation
import ProtocolVectors
import Testing

@testable import Wire

/// Replays the fuzz corpus (seeds and any past crash reproducers) and random inputs through the
/// same properties the libFuzzer harness checks, so regressions show up in a plain `swift test`.
@Suite struct FrameFuzzingTests {
    @Test func everyMessageTypeHasADecoderInTheFuzzer() {
        let covered = Set(FrameFuzzing.decodable.map { $0.type.rawValue })
        #expect(covered == Set(MessageType.all.map(\.rawValue)))
    }

    @Test func theCorpusReplaysWithoutBreakingAProperty() throws {
        guard let folder = Bundle.module.url(forResource: "Fixtures/FuzzCorpus", withExtension: nil) else {
            Issue.record("corpus folder missing")
            return
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            FrameFuzzing.check([UInt8](data))
        }
    }

    @Test func randomAndMutatedInputsNeverBreakAProperty() {
        var generator = SystemRandomNumberGenerator()
        let seeds = ProtocolDocumentTests.cases().map { $0.1.encoded() }
        for round in 0..<3000 {
            var bytes = seeds[round % seeds.count] + seeds[(round * 7) % seeds.count]
            for _ in 0..<Int.random(in: 0...4, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 5 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
            FrameFuzzing.check(bytes)
        }
    }
}
