import TerminalUI
import Testing

@Suite("Terminal input")
struct InputParserTests {
    static func events(_ text: String, flush: Bool = false) -> [InputEvent] {
        var parser = InputParser()
        var events = parser.feed(Array(text.utf8))
        if flush { events += parser.flush() }
        return events
    }

    @Test("text, control keys, Enter, Tab and Backspace")
    func plainKeys() {
        #expect(Self.events("aé😀") == [.key(.character("a")), .key(.character("é")), .key(.character("😀"))])
        #expect(Self.events("\r\n\t\u{7F}\u{08}") == [.key(.enter), .key(.enter), .key(.tab), .key(.backspace), .key(.backspace)])
        #expect(
            Self.events("\u{03}\u{04}\u{00}\u{1F}") == [.key(.control("c")), .key(.control("d")), .key(.control(" ")), .key(.control("_"))])
    }

    @Test("arrows, Home, End, paging, Delete and function keys in their CSI and SS3 forms")
    func sequences() {
        #expect(Self.events("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(
            Self.events("\u{1B}OA\u{1B}OD\u{1B}OH\u{1B}OF\u{1B}OP") == [
                .key(.up), .key(.left), .key(.home), .key(.end), .key(.function(1)),
            ])
        #expect(
            Self.events("\u{1B}[1~\u{1B}[4~\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[2~") == [
                .key(.home), .key(.end), .key(.pageUp), .key(.pageDown), .key(.delete), .key(.insert),
            ])
        #expect(Self.events("\u{1B}[15~\u{1B}[24~\u{1B}[Z") == [.key(.function(5)), .key(.function(12)), .key(.backTab)])
    }

    @Test("xterm modifiers and Alt as a leading Escape")
    func modifiers() {
        #expect(Self.events("\u{1B}[1;5C") == [.key(.right, .control)])
        #expect(Self.events("\u{1B}[1;2A") == [.key(.up, .shift)])
        #expect(Self.events("\u{1B}[3;7~") == [.key(.delete, [.alt, .control])])
        #expect(Self.events("\u{1B}x") == [.key(.character("x"), .alt)])
        #expect(Self.events("\u{1B}\u{1B}[A") == [.key(.escape), .key(.up)])
    }

    @Test("a lone Escape waits for the timeout; a sequence cut between reads waits for its rest")
    func splitInput() {
        var parser = InputParser()
        #expect(parser.feed([0x1B]).isEmpty)
        #expect(parser.isWaiting)
        #expect(parser.flush() == [.key(.escape)])
        #expect(!parser.isWaiting)

        #expect(parser.feed(Array("\u{1B}[1;".utf8)).isEmpty)
        #expect(parser.feed(Array("5D".utf8)) == [.key(.left, .control)])
        let euro = Array("€".utf8)
        #expect(parser.feed(euro[..<2]).isEmpty)
        #expect(parser.feed(euro[2...]) == [.key(.character("€"))])
    }

    @Test("SGR mouse: clicks, releases, drags, the wheel and modifiers, at 0-based cells")
    func mouse() {
        #expect(
            Self.events("\u{1B}[<0;10;5M\u{1B}[<0;10;5m") == [
                .mouse(MouseEvent(action: .press(.left), column: 9, row: 4)),
                .mouse(MouseEvent(action: .release(.left), column: 9, row: 4)),
            ])
        #expect(
            Self.events("\u{1B}[<2;1;1M\u{1B}[<32;3;4M\u{1B}[<35;3;4M") == [
                .mouse(MouseEvent(action: .press(.right), column: 0, row: 0)),
                .mouse(MouseEvent(action: .drag(.left), column: 2, row: 3)),
                .mouse(MouseEvent(action: .move, column: 2, row: 3)),
            ])
        #expect(
            Self.events("\u{1B}[<64;7;8M\u{1B}[<81;7;8M") == [
                .mouse(MouseEvent(action: .wheelUp, column: 6, row: 7)),
                .mouse(MouseEvent(action: .wheelDown, column: 6, row: 7, modifiers: .control)),
            ])
    }

    @Test("bracketed paste arrives as one event, line ends as LF, even with its end marker split")
    func paste() {
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}[200~line one\r\nline\u{1B}[A two\r".utf8)).isEmpty)
        #expect(parser.feed(Array("\u{1B}[20".utf8)).isEmpty)
        #expect(parser.feed(Array("1~q".utf8)) == [.paste("line one\nline\u{1B}[A two\n"), .key(.character("q"))])
    }

    @Test("a paste larger than the bound comes in pieces, none larger than the bound")
    func hugePaste() {
        var parser = InputParser()
        var events = parser.feed(Array("\u{1B}[200~".utf8))
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 300_000)
        for _ in 0..<8 { events += parser.feed(chunk) }
        events += parser.feed(Array("\u{1B}[201~".utf8))
        let pieces = events.compactMap { if case .paste(let text) = $0 { text.utf8.count } else { nil } }
        #expect(pieces.reduce(0, +) == 2_400_000)
        #expect(pieces.allSatisfy { $0 <= InputParser.maximumPaste + chunk.count })
        #expect(pieces.count >= 2)
    }

    @Test("what no key is becomes unknown, with its bytes; an endless sequence is cut at the bound")
    func unknown() {
        #expect(Self.events("\u{1B}[99~") == [.unknown(Array("\u{1B}[99~".utf8))])
        var parser = InputParser()
        #expect(parser.feed([0xFF, 0x61]) == [.unknown([0xFF]), .key(.character("a"))])
        let endless = parser.feed([0x1B, 0x5B] + [UInt8](repeating: 0x31, count: 200))
        #expect(endless.count >= 1)
        if case .unknown(let bytes)? = endless.first { #expect(bytes.count <= InputParser.maximumSequence + 1) }
        #expect(Self.events("\u{1B}[1;5", flush: true) == [.unknown(Array("\u{1B}[1;5".utf8))])
    }

    @Test("a terminal's reply in a control string (DCS, APC, OSC; ended by ST or BEL) is one unknown event; too long is cut")
    func controlStrings() {
        let version = "\u{1B}P>|XTerm(379)\u{1B}\\"
        let kitty = "\u{1B}_Gi=31;OK\u{1B}\\"
        let colour = "\u{1B}]11;rgb:ffff/ffff/ffff\u{07}"
        #expect(
            Self.events(version + kitty + colour + "x") == [
                .unknown(Array(version.utf8)), .unknown(Array(kitty.utf8)), .unknown(Array(colour.utf8)), .key(.character("x")),
            ])
        var parser = InputParser()
        #expect(parser.feed(Array("\u{1B}P>|XTe".utf8)).isEmpty, "a reply cut between reads waits for its rest")
        #expect(parser.feed(Array("rm(379)\u{1B}\\".utf8)) == [.unknown(Array(version.utf8))])
        let endless = parser.feed(Array("\u{1B}]11;".utf8) + [UInt8](repeating: 0x61, count: 2_000))
        #expect(!endless.isEmpty)
        if case .unknown(let bytes)? = endless.first { #expect(bytes.count <= InputParser.maximumControlString + 2) }
        #expect(Self.events("\u{1B}P", flush: true) == [.key(.character("P"), .alt)], "a lone ESC P is Alt+P")
    }
}
