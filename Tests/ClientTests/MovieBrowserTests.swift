import TerminalUI
import Testing

@testable import Client

@Suite("Movie browser")
struct MovieBrowserTests {
    @Test("next and previous move one record and stop at either end with the two fixed messages")
    func cursorStopsAtTheEnds() {
        var browser = MovieBrowser(count: 3)
        #expect(browser.on(.previous) == .message("Showing the first Record"))
        #expect(browser.index == 0)
        #expect(browser.on(.next) == .show(1))
        #expect(browser.on(.next) == .show(2))
        #expect(browser.on(.next) == .message("No more records"))
        #expect(browser.index == 2)
        #expect(browser.on(.previous) == .show(1))
        #expect(browser.on(.other("x")) == .unknownKey("x"))
        #expect(browser.index == 1)
        #expect(browser.on(.quit) == .quit)
    }

    @Test("with one record both directions answer with their message")
    func oneRecord() {
        var browser = MovieBrowser(count: 1)
        #expect(browser.on(.next) == .message(MovieBrowser.noMoreRecords))
        #expect(browser.on(.previous) == .message(MovieBrowser.showingFirstRecord))
    }

    /// The key for the bytes of one keypress, decoded as the terminal decodes them.
    static func key(_ bytes: [UInt8]) -> MovieBrowser.Key? {
        var parser = InputParser()
        let events = parser.feed(bytes) + parser.flush()
        #expect(events.count == 1, "one keypress: \(events)")
        return events.first.flatMap(MovieBrowser.key(for:))
    }

    @Test("letters, arrows and control keys decode to moves; white space means nothing")
    func keysDecode() {
        #expect(Self.key(Array("n".utf8)) == .next)
        #expect(Self.key(Array("N".utf8)) == .next)
        #expect(Self.key([0x1B, 0x5B, 0x43]) == .next)
        #expect(Self.key(Array("p".utf8)) == .previous)
        #expect(Self.key([0x1B, 0x5B, 0x44]) == .previous)
        #expect(Self.key(Array("q".utf8)) == .quit)
        #expect(Self.key([0x03]) == .quit)
        #expect(Self.key([0x1B]) == .quit)
        #expect(Self.key(Array("\n".utf8)) == nil)
        #expect(Self.key(Array(" ".utf8)) == nil)
        #expect(Self.key(Array("x".utf8)) == .other("x"))
        #expect(Self.key(Array("é".utf8)) == .other("é"))
    }

    @Test("ticket sales are whole non-negative dollars that fit SQLite, shown with separators")
    func salesRules() {
        func accepted(_ text: String) -> UInt64? {
            if case .success(let value) = TicketSales.parse(text, name: "--sales") { return value }
            return nil
        }
        #expect(accepted("0") == 0)
        #expect(accepted("1234567") == 1_234_567)
        #expect(accepted(" 42 ") == 42)
        #expect(accepted("9223372036854775807") == UInt64(Int64.max))
        #expect(accepted("$1,234,567") == 1_234_567, "what MoviePresenter.dollars shows can be typed back")
        #expect(accepted("12,345") == 12_345)
        #expect(accepted("$ 1,000") == 1_000, "a space after the dollar sign, as some people type it")
        #expect(accepted("00") == 0)
        for (text, reason) in [
            ("-5", "cannot be negative"), ("abc", "whole number"), ("12.50", "whole number"), ("", "whole number"),
            ("1e6", "whole number"), ("1,23", "whole number"), (",123", "whole number"), ("$", "whole number"),
            ("-$5", "cannot be negative"), ("-1,000", "cannot be negative"), ("-,", "whole number"),
            ("1 000", "whole number"), ("１２", "whole number"), ("9223372036854775808", "at most"),
            ("99999999999999999999999", "at most"),
        ] {
            if case .failure(let problem) = TicketSales.parse(text, name: "--sales") {
                #expect(problem.message.contains(reason), "\(text): \(problem.message)")
            } else {
                Issue.record("accepted --sales \(text)")
            }
        }
        #expect(MoviePresenter.dollars(0) == "$0")
        #expect(MoviePresenter.dollars(999) == "$999")
        #expect(MoviePresenter.dollars(1000) == "$1,000")
        #expect(MoviePresenter.dollars(1_234_567) == "$1,234,567")
        #expect(MoviePresenter.dollars(UInt64(Int64.max)) == "$9,223,372,036,854,775,807")
    }
}
