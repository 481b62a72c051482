import TerminalUI
import Testing

@Suite("What a terminal says of itself")
struct TerminalFactsTests {
    /// The replies as they come among the keys: each one event, absorbed in turn.
    static func facts(_ replies: String) -> (facts: TerminalFacts, rest: [InputEvent]) {
        var parser = InputParser()
        var facts = TerminalFacts()
        var rest: [InputEvent] = []
        for event in parser.feed(Array(replies.utf8)) + parser.flush() {
            if case .unknown(let bytes) = event, facts.absorb(bytes) { continue }
            rest.append(event)
        }
        return (facts, rest)
    }

    /// xterm 379 started with `-ti vt340` and 256 colour registers, as recorded under Xvfb.
    static let xtermVT340 =
        "\u{1B}[6;17;8t\u{1B}[4;408;640t\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?1;0;256S\u{1B}[?2;0;640;408S"
        + "\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\\u{1B}[?63;1;2;4;6;9;15;16;22;28c"

    @Test("xterm in VT340 mode: cells, text area, version, sixel with its registers and limit, a white background")
    func xterm() {
        let (facts, rest) = Self.facts(Self.xtermVT340 + "q")
        #expect(rest == [.key(.character("q"))], "a key typed after the replies stays a key")
        #expect(facts.cell == PixelSize(width: 8, height: 17))
        #expect(facts.window == PixelSize(width: 640, height: 408))
        #expect(facts.version == "XTerm(379)")
        #expect(facts.sixel && !facts.kittyGraphics && facts.answered)
        #expect(facts.colorRegisters == 256)
        #expect(facts.sixelLimit == PixelSize(width: 640, height: 408))
        #expect(facts.lightBackground == true)
    }

    @Test("kitty: the graphics query answered OK, a dark background in short hex, no sixel")
    func kitty() {
        let (facts, _) = Self.facts(
            "\u{1B}[6;19;8t\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}]11;rgb:00/00/00\u{07}"
                + "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c")
        #expect(facts.kittyGraphics && !facts.sixel && facts.answered)
        #expect(facts.cell == PixelSize(width: 8, height: 19))
        #expect(facts.lightBackground == false)
        #expect(facts.colorRegisters == nil && facts.window == nil)
    }

    @Test("refusals and strangers: a kitty error, another image's reply, a refused XTSMGRAPHICS, DA1's class is not an attribute")
    func refusals() {
        var facts = TerminalFacts()
        func takes(_ reply: String) -> Bool { facts.absorb(Array(reply.utf8)) }
        #expect(takes("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\"))
        #expect(!facts.kittyGraphics)
        #expect(!takes("\u{1B}_Gi=7;OK\u{1B}\\"), "a reply for another image is not ours")
        #expect(takes("\u{1B}[?1;3;0S") && facts.colorRegisters == nil)
        #expect(takes("\u{1B}[?4c") && !facts.sixel && facts.answered)
        #expect(!takes("\u{1B}[A"), "an arrow key answers nothing")
        #expect(!takes("\u{1B}[6;0;0t"), "a zero cell is no cell")
        #expect(!takes("\u{1B}]11;#ffffff\u{1B}\\"), "only rgb: colours are read")
    }

    @Test("the cell size: as told, else the text area over the cells, else unknown")
    func cellSize() {
        var facts = TerminalFacts()
        #expect(facts.cellSize(columns: 80, rows: 24) == nil)
        facts.window = PixelSize(width: 640, height: 408)
        #expect(facts.cellSize(columns: 80, rows: 24) == PixelSize(width: 8, height: 17))
        facts.cell = PixelSize(width: 10, height: 20)
        #expect(facts.cellSize(columns: 80, rows: 24) == PixelSize(width: 10, height: 20))
    }

    @Test("the questions: DA1 last, the kitty query left out when asked to")
    func questions() {
        let all = String(decoding: TerminalFacts.query(kitty: true), as: UTF8.self)
        let plain = String(decoding: TerminalFacts.query(kitty: false), as: UTF8.self)
        #expect(all.hasSuffix("\u{1B}[c") && plain.hasSuffix("\u{1B}[c"))
        #expect(all.contains("\u{1B}_G") && !plain.contains("\u{1B}_G"))
        for question in ["\u{1B}[16t", "\u{1B}[14t", "\u{1B}[>0q", "\u{1B}]11;?"] { #expect(plain.contains(question)) }
    }
}

@Suite("Choosing how pictures are drawn")
struct PictureChoiceTests {
    static func facts(sixel: Bool = false, kitty: Bool = false, answered: Bool = true, version: String? = nil) -> TerminalFacts {
        var facts = TerminalFacts()
        facts.sixel = sixel
        facts.kittyGraphics = kitty
        facts.answered = answered
        facts.version = version
        return facts
    }

    @Test("auto: only what the terminal confirmed, kitty before sixel before iTerm2, half blocks otherwise")
    func automatic() {
        let xterm = ["TERM": "xterm"]
        #expect(
            PictureProtocol.choose(nil, environment: xterm, facts: Self.facts(sixel: true)) == PictureChoice(pictures: .sixel, notice: nil))
        #expect(PictureProtocol.choose(nil, environment: xterm, facts: Self.facts(sixel: true, kitty: true)).pictures == .kitty)
        #expect(
            PictureProtocol.choose(nil, environment: ["TERM": "xterm-kitty"], facts: Self.facts(answered: false)).pictures == .halfblock,
            "TERM alone is no proof: the graphics query must answer")
        #expect(PictureProtocol.choose(nil, environment: ["TERM_PROGRAM": "iTerm.app"], facts: Self.facts()).pictures == .iterm)
        #expect(PictureProtocol.choose(nil, environment: xterm, facts: Self.facts()) == PictureChoice(pictures: .halfblock, notice: nil))
        #expect(
            PictureProtocol.choose(
                nil, environment: ["TERM": "screen", "TMUX": "/tmp/tmux-0/default,1,0"],
                facts: Self.facts(sixel: true)
            ).pictures == .halfblock)
    }

    @Test("forced but not there: half blocks with a notice that says why; forced and there: as asked")
    func forced() {
        let inKitty = PictureProtocol.choose(.sixel, environment: ["TERM": "xterm-kitty"], facts: Self.facts(kitty: true))
        #expect(inKitty.pictures == .halfblock)
        #expect(inKitty.notice == "--pictures sixel: this terminal does not list sixel graphics, so pictures are drawn in half blocks")
        let plainXterm = PictureProtocol.choose(.kitty, environment: ["TERM": "xterm"], facts: Self.facts())
        #expect(plainXterm.pictures == .halfblock && plainXterm.notice?.contains("kitty graphics query") == true)
        let silent = PictureProtocol.choose(.sixel, environment: ["TERM": "xterm"], facts: Self.facts(answered: false))
        #expect(silent.notice?.contains("answered no questions") == true)
        #expect(
            PictureProtocol.choose(.sixel, environment: ["TERM": "xterm"], facts: Self.facts(sixel: true))
                == PictureChoice(pictures: .sixel, notice: nil))
        #expect(
            PictureProtocol.choose(.halfblock, environment: [:], facts: Self.facts(kitty: true))
                == PictureChoice(pictures: .halfblock, notice: nil))
    }
}

@Suite("Terminal facts after a resize")
struct TerminalFactsResizeTests {
    @Test("the answers to the resize query replace the cell size and sixel limit kept from the start, which pictures are sized by")
    func resizeAnswersReplaceTheSizes() {
        var facts = TerminalFacts()
        facts.absorb(Array("\u{1B}[?2;0;880;528S".utf8))
        facts.absorb(Array("\u{1B}[6;22;11t".utf8))
        let before = facts.pictureSizing
        #expect(String(decoding: TerminalFacts.resizeQuery, as: UTF8.self) == "\u{1B}[16t\u{1B}[?2;1;0S")
        // xterm's answer after its window grew to 90x28 cells of 11x22.
        let absorbed = facts.absorb(Array("\u{1B}[?2;0;990;616S".utf8))
        #expect(absorbed)
        #expect(facts.sixelLimit == PixelSize(width: 990, height: 616) && facts.cell == PixelSize(width: 11, height: 22))
        #expect(facts.pictureSizing != before)
    }
}
