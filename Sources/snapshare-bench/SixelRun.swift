import Foundation
import Imaging
import Posix
import Release
import TerminalUI

/// `--sixel` (issues 23 and 33): the time and bytes per full-screen picture, no server. Two
/// 1600x900 pictures made from the client's bundled samples: one sample scaled up (smooth, like
/// a photo shown larger than it was taken) and a mosaic of all ten scaled down (detail
/// everywhere). Each is encoded as the client sends it: quantize + dither + the paletted sixel
/// encoder with 256 registers (the reference), with 16, and with 256 undithered (for the bytes
/// that dithering costs), and as a PNG for kitty and iTerm2; then half blocks for screens of
/// 80x24 and 200x60 cells (`CellsRun`). The variants take turns in every round so that a busy
/// moment of the machine hits them alike. `--sixel-output` keeps what each wrote, for
/// scripts/sixel-bench.sh to measure its error.
enum SixelRun {
    static let width = 1_600, height = 900
    static let rounds = 11

    /// One encoder's medians on one picture.
    struct Row {
        var picture: String
        var encoder: String
        /// Quantizing (nil where there is none), encoding, both.
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
            var lines = [
                "pictures, \(SixelRun.width)x\(SixelRun.height) (cells: 80x24 and 200x60), medians of \(SixelRun.rounds) rounds",
                "| picture | encoder | quantize ms | encode ms | total ms | bytes | time vs ours |",
                "|---|---|---:|---:|---:|---:|---:|",
            ]
            for row in rows {
                let quantize = row.quantizeMilliseconds.map { String(format: "%.1f", $0) } ?? ""
                lines.append(
                    String(
                        format: "| %@ | %@ | %@ | %.1f | %.1f | %d | %.3f× |", row.picture, row.encoder, quantize,
                        row.encodeMilliseconds, row.totalMilliseconds, row.bytes, row.ratio))
            }
            return lines.joined(separator: "\n")
        }

        var json: String {
            let items = rows.map { row in
                String(
                    format:
                        "{\"picture\":\"%@\",\"encoder\":\"%@\",\"quantize_ms\":%.3f,\"encode_ms\":%.3f,"
                        + "\"total_ms\":%.3f,\"bytes\":%d,\"ratio\":%.4f}",
                    row.picture, row.encoder, row.quantizeMilliseconds ?? 0, row.encodeMilliseconds, row.totalMilliseconds, row.bytes,
                    row.ratio)
            }
            return
                "{\"scenario\":\"sixel\",\"width\":\(SixelRun.width),\"height\":\(SixelRun.height),\"rounds\":\(SixelRun.rounds),"
                + "\"rows\":[\(items.joined(separator: ","))]}"
        }
    }

    /// The ways a picture is encoded, the reference (what the client draws sixels with) first.
    enum Encoder: CaseIterable {
        case palette256, palette16, undithered256, kittyPNG, itermPNG

        var name: String {
            switch self {
            case .palette256: "median cut 256 + dither"
            case .palette16: "median cut 16 + dither"
            case .undithered256: "median cut 256, no dither"
            case .kittyPNG: "kitty (PNG)"
            case .itermPNG: "iTerm2 (PNG)"
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
                let bytes = PictureEscapes.sixel(
                    width: indexed.width, height: indexed.height,
                    palette: indexed.palette.map { ($0.red, $0.green, $0.blue) },
                    indices: indexed.indices, column: 0, row: 0)
                return (bytes, quantized - start, MonotonicClock.nanoseconds() - quantized)
            case .kittyPNG, .itermPNG:
                let png = (try? ImageCodec.encodePNG(image)) ?? []
                let columns = image.width / 10
                let rows = image.height / 20
                let bytes =
                    self == .kittyPNG
                    ? PictureEscapes.kitty(png: png, column: 0, row: 0, columns: columns, rows: rows)
                    : PictureEscapes.iterm(file: png, column: 0, row: 0, columns: columns, rows: rows)
                return (bytes, nil, MonotonicClock.nanoseconds() - start)
            }
        }
    }

    /// `image` as a binary PPM file (P6).
    static func ppm(_ image: RGBImage) -> [UInt8] {
        Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
    }

    /// `--sixel-output DIR`: each picture as `<picture>.ppm` and each encoder's escapes as
    /// `<picture>-<encoder>.out`, for measuring the error outside (scripts/sixel-bench.sh).
    static func write(_ bytes: [UInt8], to path: String) throws {
        do { try StagedOutput.write(bytes, to: path, mode: 0o644, replacing: true) } catch { throw BenchError(error.description) }
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
            if let output { try write(ppm(picture), to: "\(output)/\(slug).ppm") }
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
                rows.append(
                    Row(
                        picture: name, encoder: encoder.name,
                        quantizeMilliseconds: times[slot].first?.quantize == nil
                            ? nil : median(times[slot].map { $0.quantize ?? 0 }),
                        encodeMilliseconds: median(times[slot].map(\.encode)), totalMilliseconds: total,
                        bytes: sizes[slot], ratio: total / reference))
            }
        }
        rows += try CellsRun.run(pictures: pictures, rounds: rounds, output: output, log: log)
        return Report(rows: rows)
    }

    /// The client's ten samples, decoded, in order.
    static func samplePictures() throws -> [RGBImage] {
        guard
            let folder = Installation.resources(part: "client", bundle: "Snapshare_Client", marker: "world-110m.geojson")?
                .appendingPathComponent("Samples"),
            let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".png") }).sorted(),
            files.count == 10
        else {
            throw BenchError(
                "the client's sample pictures are missing "
                    + "(looked in \(Installation.candidates(part: "client", bundle: "Snapshare_Client").map(\.path)))"
            )
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
        let tileWidth = tiles[0].width
        let tileHeight = tiles[0].height
        for y in 0..<height {
            for x in 0..<width {
                let tile = tiles[(y / tileHeight * (width / tileWidth) + x / tileWidth) % tiles.count]
                image[x, y] = tile[x % tileWidth, y % tileHeight]
            }
        }
        return image
    }
}
