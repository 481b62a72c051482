import Foundation
import TerminalUI
import Testing

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

@Suite("Shortening to a width")
struct TextShorteningTests {
    @Test("a text that fits is left alone; one that does not ends at a whole word with an ellipsis")
    func atAWord() {
        #expect(TextWrap.shortened("fits here", width: 9) == "fits here")
        #expect(TextWrap.shortened("any other key closes; it cannot be opened again", width: 40) == "any other key closes; it cannot be…")
        // The separator before the cut goes with it.
        #expect(TextWrap.shortened("bob · Memes · 2m ago · #12", width: 18) == "bob · Memes · 2m…")
        #expect(TextWrap.shortened("bob · Memes · 2m ago · #12", width: 15) == "bob · Memes…")
        #expect(TextWrap.shortened("is snapshare-server running (at localhost:7443)", width: 31) == "is snapshare-server running…")
    }

    @Test("no word is cut but a first one wider than the line; never wider than asked")
    func neverMidWord() {
        #expect(TextWrap.shortened("certificate-verify-failed and more", width: 10) == "certifica…")
        let caption = "omar · Memes · just now · #1 · r reports it · any other key closes; it cannot be opened again"
        for width in 1...caption.count {
            let short = TextWrap.shortened(caption, width: width)
            #expect(DisplayWidth.of(short) <= width, "\(width): \(short)")
            let word = { (text: Substring) in text.trimmingCharacters(in: .punctuationCharacters) }
            let words = Set(caption.split(separator: " ").map(word))
            let shownWords = short.dropLast(short.hasSuffix("…") ? 1 : 0).split(separator: " ").map(word)
            #expect(width < 5 || shownWords.allSatisfy(words.contains), "\(width): \(short)")
        }
        #expect(TextWrap.shortened("日本語のテキスト です", width: 7) == "日本語…")
    }

    @Test("wrapping to at most some lines ends the last one at a word with an ellipsis")
    func boundedLines() {
        #expect(TextWrap.lines("one two three four five six", width: 9, atMost: 2) == ["one two", "three…"])
        #expect(TextWrap.lines("one two", width: 9, atMost: 2) == ["one two"])
    }
}
