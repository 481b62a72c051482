import Foundation
import Imaging
import Posix
import Release
import TerminalUI
import CChafa

/// `--sixel` (issue 23): the time per full-screen sixel picture, no server. Two 1600x900
/// pictures made from the client's bundled samples: one sample scaled up (smooth, like a photo
/// shown larger than it was taken) and a mosaic of all ten scaled down (detail everywhere).
/// Each is encoded by the old 6x6x6 cube encoder (the reference) and by quantize + dither + the
/// paletted encoder with 256 and with 16 registers (and 256 undithered, for the bytes that
/// dithering costs); the variants take turns in every round so that a busy moment of the
/// machine hits them alike.
enum SixelRun {
    static let width = 1_600, height = 900
    static let rounds = 11

    /// One encoder's medians on one picture.
    struct Row {
        var picture: String
        var encoder: String
        /// Quantizing (nil for the cube, which maps as it encodes), encoding, both.
        var quantizeMilliseconds: Double?
        var encodeMilliseconds: Double
        var totalMilliseconds: Double
        var bytes: Int
        /// Total time over the product's encoder's (median cut 256 + dither) on the same picture.
        var ratio: Double
    }

    struct Report {
        var rows: [Row]

        var text: String {
            var lines = ["sixel, \(SixelRun.width)x\(SixelRun.height), medians of \(SixelRun.rounds) rounds",
                         "| picture | encoder | quantize ms | encode ms | total ms | bytes | time vs ours |",
                         "|---|---|---:|---:|---:|---:|---:|"]
            for row in rows {
                let quantize = row.quantizeMilliseconds.map { String(format: "%.1f", $0) } ?? ""
                lines.append(String(format: "| %@ | %@ | %@ | %.1f | %.1f | %d | %.3f× |", row.picture, row.encoder, quantize,
                                    row.encodeMilliseconds, row.totalMilliseconds, row.bytes, row.ratio))
            }
            return lines.joined(separator: "\n")
        }

        var json: String {
            let items = rows.map { row in
                String(format: "{\"picture\":\"%@\",\"encoder\":\"%@\",\"quantize_ms\":%.3f,\"encode_ms\":%.3f,\"total_ms\":%.3f,\"bytes\":%d,\"ratio\":%.4f}",
                       row.picture, row.encoder, row.quantizeMilliseconds ?? 0, row.encodeMilliseconds, row.totalMilliseconds, row.bytes, row.ratio)
            }
            return "{\"scenario\":\"sixel\",\"width\":\(SixelRun.width),\"height\":\(SixelRun.height),\"rounds\":\(SixelRun.rounds),\"rows\":[\(items.joined(separator: ","))]}"
        }
    }

    /// The ways a picture is encoded, the reference (what the product draws sixels with) first.
    /// The chafa rows are libchafa (Debian's libchafa-dev) given the same picture at its size,
    /// cells of 10x20 pixels, with its own palette and its own threads (all cores).
    enum Encoder: CaseIterable {
        case palette256, palette16, undithered256
        case chafaSixel, chafaSixelOrdered, chafaSixelDiffusion
        case kittyPNG, chafaKitty, itermPNG, chafaIterm

        var name: String {
            switch self {
            case .palette256: "median cut 256 + dither"
            case .palette16: "median cut 16 + dither"
            case .undithered256: "median cut 256, no dither"
            case .chafaSixel: "chafa sixel, no dither"
            case .chafaSixelOrdered: "chafa sixel, ordered dither"
            case .chafaSixelDiffusion: "chafa sixel, diffusion dither"
            case .kittyPNG: "kitty, ours (PNG)"
            case .chafaKitty: "kitty, chafa"
            case .itermPNG: "iTerm2, ours (PNG)"
            case .chafaIterm: "iTerm2, chafa"
            }
        }

        /// A name for files: letters and digits.
        var slug: String { name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined() }

        /// The picture's escapes and the nanoseconds spent quantizing and encoding.
        func encode(_ image: RGBImage) -> (bytes: [UInt8], quantize: UInt64?, encode: UInt64) {
            let start = MonotonicClock.nanoseconds()
            switch self {
            case .palette256, .palette16, .undithered256:
                let indexed = image.quantized(colors: self == .palette16 ? 16 : 256, dither: self != .undithered256)
                let quantized = MonotonicClock.nanoseconds()
                let bytes = PictureEscapes.sixel(width: indexed.width, height: indexed.height,
                                                 palette: indexed.palette.map { ($0.red, $0.green, $0.blue) },
                                                 indices: indexed.indices, column: 0, row: 0)
                return (bytes, quantized - start, MonotonicClock.nanoseconds() - quantized)
            case .kittyPNG, .itermPNG:
                let png = (try? ImageCodec.encodePNG(image)) ?? []
                let columns = image.width / 10, rows = image.height / 20
                let bytes = self == .kittyPNG ? PictureEscapes.kitty(png: png, column: 0, row: 0, columns: columns, rows: rows)
                    : PictureEscapes.iterm(file: png, column: 0, row: 0, columns: columns, rows: rows)
                return (bytes, nil, MonotonicClock.nanoseconds() - start)
            case .chafaSixel, .chafaSixelOrdered, .chafaSixelDiffusion, .chafaKitty, .chafaIterm:
                let bytes = ChafaEncoder.encode(image, mode: chafaMode, dither: chafaDither)
                return (bytes, nil, MonotonicClock.nanoseconds() - start)
            }
        }

        private var chafaMode: ChafaPixelMode {
            switch self {
            case .chafaKitty: CHAFA_PIXEL_MODE_KITTY
            case .chafaIterm: CHAFA_PIXEL_MODE_ITERM2
            default: CHAFA_PIXEL_MODE_SIXELS
            }
        }

        private var chafaDither: ChafaDitherMode {
            switch self {
            case .chafaSixelOrdered: CHAFA_DITHER_MODE_ORDERED
            case .chafaSixelDiffusion: CHAFA_DITHER_MODE_DIFFUSION
            default: CHAFA_DITHER_MODE_NONE
            }
        }
    }

    /// `--sixel-output DIR`: each picture as `<picture>.ppm` and each encoder's escapes as
    /// `<picture>-<encoder>.out`, for measuring the error outside (scripts/sixel-bench.sh).
    static func write(_ bytes: [UInt8], to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw BenchError("cannot write \(path)") }
    }

    static func run(output: String? = nil, log: (String) -> Void) throws -> Report {
        let samples = try samplePictures()
        let pictures = [
            ("02-coffee scaled up", ImageResampler.resize(samples[1], width: width, height: height)),
            // 8 x 5 tiles of 200x180, the samples in turn.
            ("mosaic of the 10 scaled down", mosaic(samples.map { ImageResampler.resize($0, width: 200, height: 180) })),
        ]
        var rows: [Row] = []
        for (name, picture) in pictures {
            log("\(name): \(Encoder.allCases.count) encoders, one warm-up and \(rounds) rounds")
            var times = [[(quantize: UInt64?, encode: UInt64)]](repeating: [], count: Encoder.allCases.count)
            var sizes = [Int](repeating: 0, count: Encoder.allCases.count)
            let slug = name.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
            if let output { try write(Array("P6\n\(picture.width) \(picture.height)\n255\n".utf8) + picture.pixels, to: "\(output)/\(slug).ppm") }
            for round in 0...rounds {
                for (slot, encoder) in Encoder.allCases.enumerated() {
                    let result = encoder.encode(picture)
                    sizes[slot] = result.bytes.count
                    if round == 0, let output { try write(result.bytes, to: "\(output)/\(slug)-\(encoder.slug).out") }
                    if round > 0 { times[slot].append((result.quantize, result.encode)) }
                }
            }
            func median(_ values: [UInt64]) -> Double { Double(values.sorted()[values.count / 2]) / 1e6 }
            let reference = median(times[0].map { ($0.quantize ?? 0) + $0.encode })
            for (slot, encoder) in Encoder.allCases.enumerated() {
                let total = median(times[slot].map { ($0.quantize ?? 0) + $0.encode })
                rows.append(Row(picture: name, encoder: encoder.name,
                                quantizeMilliseconds: times[slot].first?.quantize == nil ? nil : median(times[slot].map { $0.quantize ?? 0 }),
                                encodeMilliseconds: median(times[slot].map(\.encode)), totalMilliseconds: total,
                                bytes: sizes[slot], ratio: total / reference))
            }
        }
        rows += try CellsRun.run(pictures: pictures, rounds: rounds, output: output, log: log)
        return Report(rows: rows)
    }

    /// The client's ten samples, decoded, in order.
    static func samplePictures() throws -> [RGBImage] {
        guard let folder = Installation.resources(part: "client", bundle: "Snapshare_Client", marker: "world-110m.geojson")?
            .appendingPathComponent("Samples"),
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".png") }).sorted(),
            files.count == 10 else {
            throw BenchError("the client's sample pictures are missing (looked in \(Installation.candidates(part: "client", bundle: "Snapshare_Client").map(\.path)))")
        }
        return try files.map { file in
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(file).path) else {
                throw BenchError("cannot read \(file)")
            }
            return try ImageCodec.decode([UInt8](data))
        }
    }

    /// `tiles` (all one size) side by side, in turn, filling `width` x `height`.
    static func mosaic(_ tiles: [RGBImage]) -> RGBImage {
        var image = RGBImage(width: width, height: height, color: .black)
        let tileWidth = tiles[0].width, tileHeight = tiles[0].height
        for y in 0..<height {
            for x in 0..<width {
                let tile = tiles[(y / tileHeight * (width / tileWidth) + x / tileWidth) % tiles.count]
                image[x, y] = tile[x % tileWidth, y % tileHeight]
            }
        }
        return image
    }
}

/// libchafa's encoders, for the comparison: one canvas per picture, the picture's size in cells
/// of 10x20 pixels, printed with chafa's fallback terminal (every sequence it knows).
enum ChafaEncoder {
    nonisolated(unsafe) private static let terminal = chafa_term_db_get_fallback_info(chafa_term_db_get_default())

    static func encode(_ image: RGBImage, mode: ChafaPixelMode, dither: ChafaDitherMode) -> [UInt8] {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_pixel_mode(config, mode)
        chafa_canvas_config_set_dither_mode(config, dither)
        chafa_canvas_config_set_cell_geometry(config, 10, 20)
        chafa_canvas_config_set_geometry(config, Int32(image.width / 10), Int32(image.height / 20))
        return draw(image, config: config)
    }

    /// The picture drawn on a canvas made with `config`, and printed.
    static func draw(_ image: RGBImage, config: OpaquePointer?) -> [UInt8] {
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        image.pixels.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGB8, pixels.baseAddress, Int32(image.width), Int32(image.height),
                                         Int32(image.width * 3))
        }
        guard let printed = chafa_canvas_print(canvas, terminal) else { return [] }
        let bytes = Array(UnsafeRawBufferPointer(start: printed.pointee.str, count: Int(printed.pointee.len)).bindMemory(to: UInt8.self))
        g_string_free(printed, 1)
        return bytes
    }
}
