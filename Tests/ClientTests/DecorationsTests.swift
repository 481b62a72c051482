import Foundation
import TerminalUI
import Testing

@testable import Client

@Suite("Decoration colours that read on the terminal's background")
struct DecorationsTests {
    /// The xterm 256-colour palette entry as 8-bit RGB (the cube 16-231 and the grey ramp).
    static func rgb(_ index: UInt8) -> (Double, Double, Double) {
        let levels: [Double] = [0, 95, 135, 175, 215, 255]
        if index >= 232 {
            let grey = Double(8 + 10 * (Int(index) - 232))
            return (grey, grey, grey)
        }
        let cube = Int(index) - 16
        return (levels[cube / 36], levels[cube / 6 % 6], levels[cube % 6])
    }

    /// WCAG 2 contrast ratio between two colours.
    static func contrast(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        func luminance(_ c: (Double, Double, Double)) -> Double {
            func linear(_ v: Double) -> Double {
                let s = v / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    static func foregrounds(_ set: Decorations) -> [(String, UInt8)] {
        [
            ("unread", set.unread), ("pin", set.pin), ("selected pin", set.selectedPin), ("land", set.land), ("faint", set.faint),
            ("error", set.error),
        ].compactMap { name, colour in
            if case .indexed(let index) = colour { return (name, index) }
            return nil
        }
    }

    @Test("each set's text colours have a contrast of at least 3:1 on its background; the dark set's cyan fails on white")
    func contrast() {
        let black = (0.0, 0.0, 0.0)
        let white = (255.0, 255.0, 255.0)
        #expect(Self.foregrounds(.dark).count == 6 && Self.foregrounds(.light).count == 6)
        for (name, index) in Self.foregrounds(.dark) {
            #expect(Self.contrast(Self.rgb(index), black) >= 3, "\(name) (\(index)) on black")
        }
        for (name, index) in Self.foregrounds(.light) {
            #expect(Self.contrast(Self.rgb(index), white) >= 3, "\(name) (\(index)) on white")
        }
        if case .indexed(let cyan) = Decorations.dark.unread { #expect(Self.contrast(Self.rgb(cyan), white) < 2, "the issue's complaint") }
        // Loading tiles: the terminal's own text colour (white on dark, black on light) reads on them.
        if case .indexed(let dark) = Decorations.dark.tile, case .indexed(let light) = Decorations.light.tile {
            #expect(Self.contrast(Self.rgb(dark), white) >= 4.5 && Self.contrast(Self.rgb(light), black) >= 4.5)
        }
    }

    @Test("the set follows the background the terminal reported; without colour every colour is the terminal's own")
    func chosen() {
        #expect(Decorations.chosen(colour: true, lightBackground: true) == .light)
        #expect(Decorations.chosen(colour: true, lightBackground: false) == .dark)
        #expect(Decorations.chosen(colour: false, lightBackground: true) == .none)
        #expect(Self.foregrounds(.none).isEmpty)
    }
}
