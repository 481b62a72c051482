import Client
import Foundation
import Imaging
import Posix
import TerminalUI

/// With `--sixel`: half blocks (`PictureCells` through a `ScreenWriter`, as the app and the
/// commands draw them) for a picture filling a screen of 80x24 and of 200x60 cells in 24-bit
/// colour: time and bytes per picture; the escapes are kept with `--sixel-output` for their
/// error in a real terminal (scripts/sixel-bench.sh).
enum CellsRun {
    static let screens = [(columns: 80, rows: 24), (columns: 200, rows: 60)]

    enum Encoder: CaseIterable {
        case halfBlocks

        var name: String { "half blocks" }

        var slug: String { "half-blocks" }

        func encode(_ image: RGBImage, columns: Int, rows: Int) -> [UInt8] {
            var grid = CellGrid(columns: columns, rows: rows)
            PictureCells(image).draw(into: &grid, area: Rect(x: 0, y: 0, width: columns, height: rows), depth: .trueColor)
            var writer = ScreenWriter(depth: .trueColor)
            return writer.frame(grid)
        }
    }

    /// One row of the report: medians over the rounds.
    static func run(pictures: [(String, RGBImage)], rounds: Int, output: String?, log: (String) -> Void) throws -> [SixelRun.Row] {
        var rows: [SixelRun.Row] = []
        for (name, source) in pictures {
            for screen in screens {
                // The picture at the screen's aspect (two pixels a cell), so every encoder fills it.
                let picture = ImageResampler.resize(source, width: screen.columns * 20, height: screen.rows * 40)
                let label = "\(name), \(screen.columns)x\(screen.rows) cells"
                log("\(label): \(Encoder.allCases.count) encoders, one warm-up and \(rounds) rounds")
                var times = [[UInt64]](repeating: [], count: Encoder.allCases.count)
                var sizes = [Int](repeating: 0, count: Encoder.allCases.count)
                let slug = label.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
                if let output {
                    try SixelRun.write(SixelRun.ppm(picture), to: "\(output)/cells-\(slug).ppm")
                }
                for round in 0...rounds {
                    for (slot, encoder) in Encoder.allCases.enumerated() {
                        let start = MonotonicClock.nanoseconds()
                        let bytes = encoder.encode(picture, columns: screen.columns, rows: screen.rows)
                        let elapsed = MonotonicClock.nanoseconds() - start
                        sizes[slot] = bytes.count
                        if round == 0, let output { try SixelRun.write(bytes, to: "\(output)/cells-\(slug)-\(encoder.slug).cells") }
                        if round > 0 { times[slot].append(elapsed) }
                    }
                }
                func median(_ values: [UInt64]) -> Double { Double(values.sorted()[values.count / 2]) / 1e6 }
                let reference = median(times[0])
                for (slot, encoder) in Encoder.allCases.enumerated() {
                    rows.append(
                        SixelRun.Row(
                            picture: label, encoder: encoder.name, quantizeMilliseconds: nil,
                            encodeMilliseconds: median(times[slot]), totalMilliseconds: median(times[slot]),
                            bytes: sizes[slot], ratio: median(times[slot]) / reference))
                }
            }
        }
        return rows
    }
}
