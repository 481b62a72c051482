import Testing
import TerminalUI

@Suite("Word wrapping")
struct TextWrapTests {
    @Test("words go on while they fit; an empty text is one empty line")
    func wordsFill() {
        #expect(TextWrap.lines("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TextWrap.lines("", width: 10) == [""])
        #expect(TextWrap.lines("fits", width: 4) == ["fits"])
    }

    @Test("an indented text keeps its indent on the first line")
    func indentStays() {
        #expect(TextWrap.lines("  snapshare trust host:1", width: 40) == ["  snapshare trust host:1"])
        #expect(TextWrap.lines("  one two three", width: 9) == ["  one two", "three"])
    }

    @Test("a word wider than a line is cut into pieces, by columns")
    func longWordsAreCut() {
        #expect(TextWrap.lines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        #expect(TextWrap.lines("go abcdefgh", width: 4) == ["go", "abcd", "efgh"])
        // Wide characters take two columns each.
        #expect(TextWrap.lines("日本語の", width: 4) == ["日本", "語の"])
    }

    @Test("no line is wider than asked")
    func bounded() {
        let text = "This may be an attack: someone between you and the server, showing their own certificate."
        for width in 2...40 {
            #expect(TextWrap.lines(text, width: width).allSatisfy { DisplayWidth.of($0) <= width }, "width \(width)")
        }
    }
}
