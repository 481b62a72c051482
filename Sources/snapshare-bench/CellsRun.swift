import Client
import CChafa
import Foundation
import Imaging
import Posix
import TerminalUI

/// With `--sixel`: half blocks (ours, `PictureCells` through a `ScreenWriter`, as the app and the
/// commands draw them) against libchafa's symbols (restricted to the same half blocks, and its
/// default set: blocks, borders and spaces, finer shapes in a cell) for a picture filling a
/// screen of 80x24 and of 200x60 cells in 24-bit colour: time and bytes per picture; the escapes
/// are kept with `--sixel-output` for their error in a real terminal (scripts/sixel-bench.sh).
enum CellsRun {
    static let screens = [(columns: 80, rows: 24), (columns: 200, rows: 60)]

    enum Encoder: CaseIterable {
        case halfBlocks, chafaHalfBlocks, chafaSymbols

        var name: String {
            switch self {
            case .halfBlocks: "half blocks, ours"
            case .chafaHalfBlocks: "chafa, half blocks only"
            case .chafaSymbols: "chafa symbols (block+border+space)"
            }
        }

        var slug: String { name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined() }

        func encode(_ image: RGBImage, columns: Int, rows: Int) -> [UInt8] {
            switch self {
            case .halfBlocks:
                var grid = CellGrid(columns: columns, rows: rows)
                PictureCells(image).draw(into: &grid, area: Rect(x: 0, y: 0, width: columns, height: rows), depth: .trueColor)
                var writer = ScreenWriter(depth: .trueColor)
                return writer.frame(grid)
            case .chafaHalfBlocks, .chafaSymbols:
                return ChafaEncoder.symbols(image, columns: columns, rows: rows, halfBlocksOnly: self == .chafaHalfBlocks)
            }
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
                    try SixelRun.write(Array("P6\n\(picture.width) \(picture.height)\n255\n".utf8) + picture.pixels, to: "\(output)/cells-\(slug).ppm")
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
                    rows.append(SixelRun.Row(picture: label, encoder: encoder.name, quantizeMilliseconds: nil,
                                             encodeMilliseconds: median(times[slot]), totalMilliseconds: median(times[slot]),
                                             bytes: sizes[slot], ratio: median(times[slot]) / reference))
                }
            }
        }
        return rows
    }
}

extension ChafaEncoder {
    /// chafa's symbols for `columns` x `rows` cells in 24-bit colour, the picture stretched to them.
    static func symbols(_ image: RGBImage, columns: Int, rows: Int, halfBlocksOnly: Bool) -> [UInt8] {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        let map = chafa_symbol_map_new()
        defer { chafa_symbol_map_unref(map) }
        if halfBlocksOnly {
            chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_VHALF)
        } else {
            // chafa's own default for a truecolor terminal: block+border+space-wide-inverted.
            chafa_symbol_map_add_by_tags(map, ChafaSymbolTags(CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_BORDER.rawValue
                                                                | CHAFA_SYMBOL_TAG_SPACE.rawValue))
            chafa_symbol_map_remove_by_tags(map, ChafaSymbolTags(CHAFA_SYMBOL_TAG_WIDE.rawValue | CHAFA_SYMBOL_TAG_INVERTED.rawValue))
        }
        chafa_canvas_config_set_symbol_map(config, map)
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        chafa_canvas_config_set_geometry(config, Int32(columns), Int32(rows))
        return draw(image, config: config)
    }
}
