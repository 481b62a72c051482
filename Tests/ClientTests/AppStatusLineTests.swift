import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// The status line belongs to the screen and the moment that set it, and long text wraps
/// rather than being cut: on the status line, in a box, in a picture's caption.
@Suite("App status line", .serialized)
struct AppStatusLineTests {
    static func rows(_ app: AppModel, columns: Int = 80, rows: Int = 24) -> [String] {
        AppScreenTests.screen(app, columns: columns, rows: rows).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("a status said on one tab goes when another is chosen, and does not come back with its tab")
    func belongsToItsTab() throws {
        let room = try AppDialogTests.Class()
        let app = room.app
        AppScreenTests.press(app, .enter)
        AppScreenTests.press(app, .character("x"))
        #expect(app.status?.text == "Opened ann's snap")
        #expect(Self.rows(app).last?.contains("Opened ann's snap") == true)
        AppScreenTests.press(app, .character("3"))
        #expect(app.status == nil && !Self.rows(app).joined().contains("Opened ann's snap"), "stale on the Map tab")
        AppScreenTests.press(app, .character("2"))
        #expect(app.status == nil)
    }

    @Test("a note goes once it has had its moment, an error stays longer, and work under way stays until its result replaces it")
    func lastsItsMoment() throws {
        let home = TemporaryDirectory("app-home")
        let app = AppKeyHelpTests.app(home: home)
        var now: Int64 = 1_000_000
        app.clock = { now }
        app.setStatus("Chose holiday.jpg")
        now += StatusLine.noteLasts - 1
        app.tick()
        #expect(app.status?.text == "Chose holiday.jpg")
        now += 1
        app.tick()
        #expect(app.status == nil)
        app.setStatus("Cannot read x.png", isError: true)
        now += StatusLine.noteLasts
        app.tick()
        #expect(app.status?.isError == true, "an error is left longer to be read")
        now += StatusLine.errorLasts
        app.tick()
        #expect(app.status == nil)
        app.setStatus("Posting 3 cat to Memes…", kind: .progress)
        now += 10 * StatusLine.errorLasts
        app.tick()
        #expect(app.status?.text == "Posting 3 cat to Memes…")
    }

    @Test("a message is wrapped on the status line's two rows, never cut; one longer than two rows is also shown whole in a box, once")
    func wrapsNeverCuts() throws {
        let home = TemporaryDirectory("app-home")
        let app = AppKeyHelpTests.app(home: home)
        let message =
            "cannot connect to localhost:7443: connection refused (is snapshare-server running at localhost:7443? "
            + "--server or SNAPSHARE_SERVER picks another)"
        app.setStatus(message, isError: true)
        var shown = Self.rows(app)
        #expect(app.overlay == nil)
        let bottom = shown.suffix(2).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(bottom.joined(separator: " ") == message, "\(bottom)")

        let longer =
            message + "; TLS error (certificate-verify-failed): certificate verify failed: unable to get local issuer certificate. "
            + "Tell your instructor what it says above."
        app.setStatus(longer, isError: true)
        shown = Self.rows(app)
        guard case .text(_, let lines)? = app.overlay else {
            Issue.record("no box for a long message: \(shown)")
            return
        }
        #expect(lines == [longer])
        let box = shown.filter { $0.contains("│") }
            .map { $0.replacingOccurrences(of: "│", with: "").trimmingCharacters(in: .whitespaces) }
        #expect(box.joined(separator: " ").contains(longer), "the whole message, wrapped in the box: \(box)")
        // Under the box the status line keeps two rows of it, ending at a word.
        #expect(
            shown[22].trimmingCharacters(in: .whitespaces).hasPrefix("cannot connect")
                && shown[23].trimmingCharacters(in: .whitespaces).hasSuffix("…"), "\(shown.suffix(2))")
        AppScreenTests.press(app, .character("x"))
        #expect(app.overlay == nil)
        _ = Self.rows(app)
        #expect(app.overlay == nil, "the same message is not boxed again")
    }

    @Test("a full-screen picture's caption that does not fit is shortened at a word with an ellipsis")
    func captionAtAWord() throws {
        // A long name makes the caption longer than 80 columns.
        let room = try AppDialogTests.Class(poster: "annabelle.from.the.back.row")
        let app = room.app
        AppScreenTests.press(app, .enter)
        guard case .picture(_, let caption, _)? = app.overlay else {
            Issue.record("not opened")
            return
        }
        let shown = Self.rows(app).last!.trimmingCharacters(in: .whitespaces)
        #expect(caption.count > 80 && shown.hasSuffix("…") && shown.count <= 80, "\(shown)")
        let words = Set(caption.split(separator: " ").map { $0.trimmingCharacters(in: .punctuationCharacters) })
        #expect(
            shown.dropLast().split(separator: " ").allSatisfy { words.contains($0.trimmingCharacters(in: .punctuationCharacters)) },
            "a word cut inside: \(shown)")
        // In a window wide enough it is whole.
        #expect(Self.rows(app, columns: 120, rows: 30).last!.trimmingCharacters(in: .whitespaces) == caption)
    }
}
