import TerminalUI
import Testing

/// How many colours a terminal has, from its environment and its own answer.
@Suite struct ColorDepthTests {
    @Test func theTerminalSaysHowManyColoursItHas() {
        #expect(ColorDepth.detect(["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColor)
        #expect(ColorDepth.detect(["COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-direct"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "screen-256color"]) == .palette256)
        #expect(ColorDepth.detect(["TERM": "xterm"]) == .palette256, "Debian's xterm says only TERM=xterm")
        #expect(ColorDepth.detect(["TERM": "dumb"]) == .plain)
        #expect(ColorDepth.detect(["TERM": "linux"]) == .plain)
        #expect(ColorDepth.detect([:]) == .plain)
    }

    @Test func theTerminalsOwnAnswerRaisesTheDepth() {
        #expect(ColorDepth.detect(["TERM": "xterm"], version: "XTerm(379)") == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm"], version: "XTerm(322)") == .palette256, "direct colour came in patch 331")
        #expect(ColorDepth.detect(["TERM": "xterm-256color"], version: "kitty(0.26.5)") == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-kitty"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm"], version: "SomethingElse 1.0") == .palette256)
        #expect(ColorDepth.detect(["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]) == .trueColor, "xterm's own variable, unasked")
        #expect(ColorDepth.detect(["TERM": "dumb"], version: "XTerm(379)") == .plain, "dumb stays plain whatever answers")
    }

    @Test func noColorTurnsOffDecorationsOnly() {
        #expect(ColorDepth.decorationsColored(["TERM": "xterm-256color"], onTerminal: true))
        #expect(!ColorDepth.decorationsColored(["TERM": "xterm-256color", "NO_COLOR": "1"], onTerminal: true))
        #expect(!ColorDepth.decorationsColored(["TERM": "xterm-256color"], onTerminal: false))
        #expect(ColorDepth.detect(["COLORTERM": "truecolor", "NO_COLOR": "1"]) == .plain, "NO_COLOR: shaded characters, no colour")
    }

    @Test func paletteColoursAreTheNearestCubeOrGrey() {
        #expect(ColorDepth.paletteIndex(red: 255, green: 0, blue: 0) == 196)
        #expect(ColorDepth.paletteIndex(red: 0, green: 0, blue: 0) == 16)
        #expect(ColorDepth.paletteIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(ColorDepth.paletteIndex(red: 128, green: 128, blue: 128) == 244)
    }
}
