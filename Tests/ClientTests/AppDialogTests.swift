import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// The app's dialogs against a real server: a dialog owns every key while it is open, keeps a
/// refusal inside it, and fits the window.
@Suite("App dialogs", .serialized)
struct AppDialogTests {
    /// A class where ann posted one snap to Memes, and bob's app shows it on Feeds, selected and unread.
    struct Class {
        let server: TestServer
        let home: TemporaryDirectory
        let app: AppModel
        let ann: SnapshareSession
        let snap: SnapInfo

        /// `poster`: ann's name.
        init(poster: String = "ann") throws {
            server = try TestServer()
            home = TemporaryDirectory("app-home")
            ann = try server.registeredSession(poster)
            snap = try ann.post(feed: "Memes", image: try SampleLibrary.all()[2].bytes())
            app = AppScreenTests.app(try server.registeredSession("bob"), home: home.path)
            AppScreenTests.press(app, .character("2"))
            #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("● unread"))
        }
    }

    static func dialog(_ app: AppModel) -> Dialog? {
        if case .dialog(let dialog)? = app.overlay { dialog } else { nil }
    }

    @Test("an empty reason is refused inside the dialog; no key typed into it, nor a click, reaches the snap behind it")
    func nothingFallsThrough() throws {
        let room = try Class()
        let (server, app, ann, snap) = (room.server, room.app, room.ann, room.snap)
        AppScreenTests.press(app, .character("r"))
        let report = try #require(Self.dialog(app))
        AppScreenTests.press(app, .enter)
        #expect(Self.dialog(app) === report && report.refusal?.contains("a report needs a reason") == true)
        #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("a report needs a reason"), "said inside the dialog")
        // Every other key, and clicks on the snap's row: into the dialog or nowhere.
        let row =
            AppScreenTests.screen(app, columns: 80, rows: 24).split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("● unread") } ?? 4
        for key in AppKeyHelpTests.everyKey where ![.enter, .escape, .control("c"), .control("z")].contains(key) {
            app.handle(.key(key))
            #expect(Self.dialog(app) === report, "\(key) closed the dialog")
        }
        app.handle(.mouse(MouseEvent(action: .press(.left), column: 5, row: row)))
        app.handle(.mouse(MouseEvent(action: .press(.left), column: 5, row: row)))
        app.handle(.paste("a pasted line"))
        #expect(Self.dialog(app) === report && app.tab == .feeds && !app.quitRequested)
        #expect(try ann.snapViews(snap.id).viewers.isEmpty, "the snap behind the dialog was opened")
        // Cleared and empty again, then Esc: nothing sent, the snap still unread.
        AppScreenTests.press(app, .control("u"), .enter)
        #expect(Self.dialog(app) === report && report.refusal != nil)
        AppScreenTests.press(app, .escape)
        #expect(app.overlay == nil && app.status?.text == "Nothing sent")
        #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("● unread"))
        #expect(try server.openStore().openReports().isEmpty)
    }

    @Test("a reason the server refuses is said inside the dialog, which stays open; one it takes closes it")
    func serverRefusalStaysInside() throws {
        let room = try Class()
        let (app, ann, snap) = (room.app, room.ann, room.snap)
        AppScreenTests.press(app, .character("r"))
        // The poster takes the snap back while bob types.
        try ann.unsend(snapID: snap.id)
        AppScreenTests.type(app, "not for class")
        AppScreenTests.press(app, .enter)
        let refused = try #require(Self.dialog(app))
        #expect(refused.refusal != nil && !refused.busy, "\(String(describing: refused.refusal))")
        #expect(refused.field?.text == "not for class", "what was typed stays, to send again")
        AppScreenTests.press(app, .escape)

        let again = try ann.post(feed: "Memes", image: try SampleLibrary.all()[3].bytes())
        app.tick()
        AppScreenTests.press(app, .home, .character("r"))
        AppScreenTests.type(app, "spam")
        AppScreenTests.press(app, .enter)
        #expect(app.overlay == nil && app.status?.text == "Reported snap \(again.id) to the admins; only they see who reported it")
    }

    @Test("a confirmation whose action the server refuses keeps the refusal inside; n answers no")
    func confirmationRefusal() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let session = try server.registeredSession("cinephile")
        _ = try session.addMovie(MovieInfo(title: "Alien", genre: "Horror", sales: 80_000_000))
        let app = AppScreenTests.app(session, home: home.path)
        AppScreenTests.press(app, .character("5"))
        #expect(AppScreenTests.screen(app).contains("Alien"))
        AppScreenTests.press(app, .character("d"), .character("n"))
        #expect(app.overlay == nil && app.status?.text == "Nothing changed")
        // Deleted elsewhere meanwhile: the dialog says the server's answer and stays.
        AppScreenTests.press(app, .character("d"))
        try session.deleteMovie(title: "Alien")
        AppScreenTests.press(app, .character("y"))
        let dialog = try #require(Self.dialog(app))
        #expect(dialog.refusal != nil, "the server's refusal is inside the dialog")
        #expect(AppScreenTests.screen(app).contains(dialog.refusal ?? "?"))
        AppScreenTests.press(app, .escape)
        #expect(app.overlay == nil)
    }

    @Test("the reason counts its characters and says when it is full, also after a paste longer than it takes")
    func reasonLimitIsSaid() throws {
        let room = try Class()
        let app = room.app
        AppScreenTests.press(app, .character("r"))
        AppScreenTests.type(app, "blurry")
        #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("6 of 200 characters"))
        app.handle(.paste(String(repeating: "much too long ", count: 20)))
        let dialog = try #require(Self.dialog(app))
        #expect(dialog.field?.text.count == 200 && dialog.field?.overflowed == true)
        #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("200 of 200 characters: the most it takes"))
    }

    @Test("a dialog's title stays between its corners at 80 columns, shortened at a word when the window is too narrow for it")
    func titlesFit() throws {
        let home = TemporaryDirectory("app-home")
        let app = AppKeyHelpTests.app(home: home)
        func topEdge(_ title: String, question: String) -> String {
            app.present(Dialog(confirm: question, title: title, yes: { _, finish in finish(.done) }, no: {}))
            defer { AppScreenTests.press(app, .escape) }
            let row = AppScreenTests.screen(app, columns: 80, rows: 24).split(separator: "\n").first { $0.contains("┌─ ") } ?? ""
            // The box's top edge alone: thumbnails of the picker show on either side.
            guard let start = row.range(of: "┌─ "), let end = row.range(of: "┐", options: .backwards) else { return String(row) }
            return String(row[start.lowerBound..<end.upperBound])
        }
        // A title wider than what the box holds: the box grows to hold it, corners and all.
        var edge = topEdge("Report snap 123456 to the admins of the class", question: "Sure?")
        #expect(edge.contains("┌─ Report snap 123456 to the admins of the class ─┐"), "\(edge)")
        // Wider than the window: shortened at a word, inside the corners.
        edge = topEdge(String(repeating: "a very long title ", count: 6), question: "Sure?")
        #expect(edge.hasPrefix("┌─ a very long title") && edge.hasSuffix("… ─┐") && edge.count <= 76, "\(edge)")
    }

    @Test("Ctrl-C quits from inside a dialog")
    func ctrlCQuits() throws {
        let home = TemporaryDirectory("app-home")
        let app = AppKeyHelpTests.app(home: home)
        app.confirm("Sure?") { _, finish in finish(.done) }
        AppScreenTests.press(app, .control("c"))
        #expect(app.quitRequested)
    }
}
