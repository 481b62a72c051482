import Foundation

/// How a picture reaches the screen: half blocks (two pixels per cell, everywhere), or the real
/// pixels through a terminal's graphics protocol.
public enum PictureProtocol: String, Sendable, CaseIterable {
    case halfblock, kitty, iterm, sixel

    /// How pictures are drawn on a terminal that answered `facts`: the protocol asked for
    /// (`requested`), or the best one the terminal really shows when nil (kitty, then sixel, then
    /// iTerm2's, then half blocks). A protocol counts only when the terminal says so — kitty's
    /// graphics query answered OK, sixel in the DA1 reply, iTerm2 or WezTerm by name — so that
    /// a snap, which opens once, is never spent on a picture that does not appear. Asked for and
    /// not there, it is half blocks with `notice` saying why.
    ///
    /// Inside tmux or screen the choice is half blocks: the terminal outside is not the one
    /// answering, and the multiplexer does not track pictures it passes on.
    public static func choose(_ requested: PictureProtocol?, environment: [String: String], facts: TerminalFacts) -> PictureChoice {
        let multiplexed = TerminalSession.insideMultiplexer(environment)
        func shown(_ pictures: PictureProtocol) -> Bool {
            switch pictures {
            case .halfblock: true
            case .kitty: facts.kittyGraphics
            case .sixel: facts.sixel && !multiplexed
            case .iterm:
                !multiplexed && (environment["TERM_PROGRAM"] == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2"
                    || environment["TERM_PROGRAM"] == "WezTerm" || ["iTerm2", "WezTerm"].contains { facts.version?.hasPrefix($0) == true })
            }
        }
        guard let requested else {
            return PictureChoice(pictures: [.kitty, .sixel, .iterm].first { !multiplexed && shown($0) } ?? .halfblock, notice: nil)
        }
        if shown(requested) { return PictureChoice(pictures: requested, notice: nil) }
        let why = switch requested {
        case .kitty: facts.answered ? "this terminal did not answer the kitty graphics query" : "this terminal answered no questions"
        case .sixel: multiplexed ? "tmux and screen do not pass sixels on" : facts.answered ? "this terminal does not list sixel graphics" : "this terminal answered no questions"
        case .iterm, .halfblock: "this terminal is not iTerm2 or WezTerm"
        }
        return PictureChoice(pictures: .halfblock, notice: "--pictures \(requested.rawValue): \(why), so pictures are drawn in half blocks")
    }
}

/// The protocol pictures are drawn with, and why it is not the one asked for (nil when it is).
public struct PictureChoice: Sendable, Equatable {
    public let pictures: PictureProtocol
    public let notice: String?

    public init(pictures: PictureProtocol, notice: String?) {
        self.pictures = pictures
        self.notice = notice
    }
}

/// The escape sequences of the graphics protocols, each placing one picture with its top left
/// corner at a cell (0-based) and scaled by the terminal into `columns` x `rows` cells.
public enum PictureEscapes {
    /// Kitty graphics protocol: a PNG, sent in base64 chunks of 4096 (a=T transmit and show,
    /// f=100 PNG, q=2 no replies, C=1 the cursor stays).
    public static func kitty(png: [UInt8], column: Int, row: Int, columns: Int, rows: Int) -> [UInt8] {
        Array(cursor(column: column, row: row).utf8) + kittyChunks(png: png, control: "a=T,f=100,q=2,C=1,c=\(columns),r=\(rows)")
    }

    /// Kitty: stores a PNG under image `id` (1 or more) without showing it; sending again under the
    /// same id replaces it.
    public static func kittyTransmit(png: [UInt8], id: Int) -> [UInt8] {
        kittyChunks(png: png, control: "a=t,f=100,q=2,i=\(id)")
    }

    /// Kitty: shows stored image `id` with its top left corner at a cell, scaled into `columns` x
    /// `rows` cells (placement 1 of that image: placing it again moves it).
    public static func kittyPlace(id: Int, column: Int, row: Int, columns: Int, rows: Int) -> [UInt8] {
        Array((cursor(column: column, row: row) + "\u{1B}_Ga=p,i=\(id),p=1,q=2,C=1,c=\(columns),r=\(rows)\u{1B}\\").utf8)
    }

    /// Kitty: frees stored image `id` and its placements.
    public static func kittyFree(id: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }

    /// The PNG in base64 chunks of 4096, the first carrying `control`, each but the last `m=1`.
    private static func kittyChunks(png: [UInt8], control: String) -> [UInt8] {
        let encoded = Array(Data(png).base64EncodedString().utf8)
        var output: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(encoded.count, offset + 4096)
            let more = end < encoded.count ? 1 : 0
            let keys = offset == 0 ? "\(control),m=\(more)" : "m=\(more)"
            output += Array("\u{1B}_G\(keys);".utf8) + encoded[offset..<end] + Array("\u{1B}\\".utf8)
            offset = end
        } while offset < encoded.count
        return output
    }

    /// Removes every picture the kitty protocol placed (stored images keep their data).
    public static let kittyDeleteAll = Array("\u{1B}_Ga=d,q=2\u{1B}\\".utf8)

    /// iTerm2 inline image: the file (PNG or JPEG) as it is, in base64.
    public static func iterm(file: [UInt8], column: Int, row: Int, columns: Int, rows: Int) -> [UInt8] {
        Array((cursor(column: column, row: row)
               + "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
               + Data(file).base64EncodedString() + "\u{07}").utf8)
    }

    /// Sixel: `rgb` (3 bytes a pixel, `width` x `height`, already at the size to show) in the
    /// 6x6x6 colour cube, one band of six pixel rows at a time, runs of equal sixels compressed.
    public static func sixel(width: Int, height: Int, rgb: [UInt8], column: Int, row: Int) -> [UInt8] {
        precondition(rgb.count == width * height * 3, "rgb holds width x height pixels")
        func level(_ value: UInt8) -> Int { (Int(value) * 5 + 127) / 255 }
        var indices = [UInt8](repeating: 0, count: width * height)
        var used = Set<UInt8>()
        for pixel in 0..<(width * height) {
            let index = UInt8(level(rgb[pixel * 3]) * 36 + level(rgb[pixel * 3 + 1]) * 6 + level(rgb[pixel * 3 + 2]))
            indices[pixel] = index
            used.insert(index)
        }
        var output = cursor(column: column, row: row) + "\u{1B}P0;1;0q\"1;1;\(width);\(height)"
        for index in used.sorted() {
            let value = Int(index)
            output += "#\(value);2;\(value / 36 * 20);\(value / 6 % 6 * 20);\(value % 6 * 20)"
        }
        for top in stride(from: 0, to: height, by: 6) {
            for index in used.sorted() {
                var line = ""
                var run: (character: Character, count: Int)?
                var any = false
                for x in 0..<width {
                    var bits = 0
                    for bit in 0..<6 where top + bit < height && indices[(top + bit) * width + x] == index { bits |= 1 << bit }
                    any = any || bits != 0
                    let character = Character(Unicode.Scalar(UInt8(63 + bits)))
                    if let current = run, current.character == character {
                        run = (character, current.count + 1)
                    } else {
                        if let current = run { line += Self.run(current) }
                        run = (character, 1)
                    }
                }
                guard any, let last = run else { continue }
                output += "#\(index)" + line + Self.run(last) + "$"
            }
            output += "-"
        }
        return Array((output + "\u{1B}\\").utf8)
    }

    private static func run(_ run: (character: Character, count: Int)) -> String {
        run.count > 3 ? "!\(run.count)\(run.character)" : String(repeating: run.character, count: run.count)
    }

    private static func cursor(column: Int, row: Int) -> String { "\u{1B}[\(row + 1);\(column + 1)H" }
}
