import Client
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Moderation in the real app, full screen in tmux against a real server: a student reports a
/// snap from Feeds; an admin's Reports tab shows it, looks at it without a view, and deletes it
/// with a suspension.
@Suite("Moderation in the app", .serialized, .enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct AppModerationTmuxTests {
    @Test("a student reports a snap from Feeds; the admin's Reports tab shows it, views it, and deletes it suspending the poster")
    func reportViewDeleteSuspend() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("omar")
        let opened = try poster.post(feed: "Memes", image: TestImages.sample(6))
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(4))
        let (lenaHome, _) = try AppTmuxTests.registeredHome(server, "lena")
        _ = try server.makeAdmin("teacher")
        let teacherHome = TemporaryDirectory("teacher")
        let (teacherSession, _) = try server.session(home: teacherHome)
        _ = try teacherSession.login(username: "teacher", password: "correct horse battery")

        let student = try AppTmuxTests.app(server, home: lenaHome)
        var screen = try Self.shows(student, "Signed in as lena")
        #expect(!screen.contains("Reports"), "the Reports tab is for admins: \(screen)")
        try student.send("2")
        screen = try Self.shows(student, "● unread")
        #expect(screen.contains("#\(snap.id)"), "each row shows its snap id: \(screen)")
        try student.send("r")
        screen = try Self.shows(student, "Report snap \(snap.id) to the admins")
        try student.send("not for class", literal: true)
        try student.send("Enter")
        screen = try Self.shows(student, "Reported snap \(snap.id)")
        // From an opened snap too: r on the picture asks why.
        try student.send("Down")
        try student.send("Enter")
        screen = try Self.shows(student, "r reports it")
        #expect(screen.contains("#\(opened.id)"), "\(screen)")
        try student.send("r")
        screen = try Self.shows(student, "Report snap \(opened.id) to the admins")
        try student.send("rude", literal: true)
        try student.send("Enter")
        screen = try Self.shows(student, "Reported snap \(opened.id)")
        try student.send("q")

        let admin = try AppTmuxTests.app(server, home: teacherHome)
        screen = try Self.shows(admin, "Signed in as teacher")
        #expect(screen.contains("6 Reports"), "\(screen)")
        try admin.send("6")
        screen = try Self.shows(admin, "Reported (2)")
        #expect(
            screen.contains("#\(snap.id)") && screen.contains("omar in Memes") && screen.contains("lena: not for class")
                && screen.contains("lena: rude"), "\(screen)")
        // The oldest report first, and the cursor on it: the one made from Feeds.
        try admin.send("Enter")
        screen = try Self.shows(admin, "admin view: no view spent")
        #expect(!screen.contains("Reported (2)"), "full screen: \(screen)")
        try admin.send("c")
        screen = try Self.shows(admin, "Looked at snap \(snap.id)")
        #expect(screen.contains("Reported (2)"), "\(screen)")
        try admin.send("s")
        screen = try Self.shows(admin, "suspend omar for 7 days?")
        try admin.send("y")
        screen = try Self.shows(admin, "Deleted snap \(snap.id); omar is suspended for 7 days")
        screen = try Self.shows(admin, "Reported (1)")
        try admin.send("q")

        #expect(try server.count("SELECT count(*) FROM snaps WHERE id = \(Int64(snap.id))") == 0)
        let refused = clientError { _ = try poster.post(feed: "Memes", image: TestImages.sample(5)) }
        #expect(
            refused?.serverCode == .forbidden && refused?.message.contains("suspended from posting") == true,
            "\(String(describing: refused))")
        let audit = try server.openStore().auditEntries(since: 0, limit: 50).filter { $0.actor == "teacher" }.map(\.action)
        #expect(audit.contains("AdminViewSnap") && audit.contains("AdminResolveReport"), "\(audit)")
    }

    @Test("an empty report reason keeps the dialog open with the refusal inside; the Enters after it open nothing, and no view is spent")
    func emptyReasonKeepsTheDialog() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("omar")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(4))
        let (home, _) = try AppTmuxTests.registeredHome(server, "lena")
        let student = try AppTmuxTests.app(server, home: home, columns: 80, rows: 24)
        try Self.shows(student, "Signed in as lena")
        try student.send("2")
        try Self.shows(student, "● unread")
        try student.send("r")
        try Self.shows(student, "Report snap \(snap.id) to the admins")
        // Enter with nothing typed: refused inside the dialog, which stays open.
        try student.send("Enter")
        var screen = try Self.shows(student, "a report needs a reason")
        #expect(screen.contains("Report snap \(snap.id) to the admins"), "the dialog is still open: \(screen)")
        // The student's next Enters, meant for the reason, stay in the dialog: no snap opens.
        try student.send("Enter")
        try student.send("Enter")
        screen = try Self.shows(student, "Report snap \(snap.id) to the admins")
        #expect(!screen.contains("r reports it") && !screen.contains("Opening"), "the snap behind the dialog was opened: \(screen)")
        #expect(try poster.snapViews(snap.id).viewers.isEmpty, "a view was spent")
        try student.send("spam", literal: true)
        try student.send("Enter")
        screen = try Self.shows(student, "Reported snap \(snap.id)")
        #expect(screen.contains("● unread") && !screen.contains("Report snap \(snap.id) to the admins"), "\(screen)")
        // Esc closes a dialog without sending; the snap is still unread.
        try student.send("r")
        try Self.shows(student, "Report snap \(snap.id) to the admins")
        try student.send("Escape")
        screen = try Self.shows(student, "Nothing sent")
        #expect(screen.contains("● unread"), "\(screen)")
        try student.send("q")
        #expect(try poster.snapViews(snap.id).viewers.isEmpty, "a view was spent")
        let reports = try server.openStore().openReports().flatMap(\.reports).map(\.reason)
        #expect(reports == ["spam"], "one report, with its reason: \(reports)")
    }

    /// Waits for `text` on the pane, and records an issue with the screen when it never comes.
    @discardableResult
    static func shows(_ pane: TmuxPane, _ text: String, timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let screen = try pane.wait(timeout: timeout) { $0.contains(text) }
        #expect(screen.contains(text), "waited for \"\(text)\": \(screen)", sourceLocation: sourceLocation)
        return screen
    }

    @Test("a rejected snap shows in its poster's Feeds with the reason; Enter says it whole, u dismisses it")
    func aRejectionInTheApp() throws {
        let server = try TestServer { $0.moderation = .queue }
        let (omarHome, omar) = try AppTmuxTests.registeredHome(server, "omar")
        let posted = try omar.post(feed: "Memes", image: TestImages.sample(2))
        let admin = try server.makeAdmin("teacher")
        try admin.approve(snapID: posted.id, false, reason: "off topic for Memes")

        let app = try AppTmuxTests.app(server, home: omarHome, columns: 80, rows: 24)
        try Self.shows(app, "Signed in as omar")
        try app.send("2")
        var screen = try Self.shows(app, "✕ rejected: off topic for Memes")
        #expect(screen.contains("#\(posted.id)"), "\(screen)")
        try app.send("Enter")
        screen = try Self.shows(app, "An admin rejected your snap in Memes")
        #expect(screen.contains("Why: off topic for Memes") && screen.contains("u dismisses"), "\(screen)")
        try app.send("Escape")
        try app.send("u")
        screen = try Self.shows(app, "Dismissed the notice")
        #expect(!screen.contains("rejected:"), "\(screen)")
        #expect(try omar.snaps(feed: nil).snaps.isEmpty, "dismissed on the server")
        try app.send("q")
    }

    @Test("a roster account's first login in the app asks for the student's own password, then works")
    func oneTimePasswordInTheApp() throws {
        let server = try TestServer()
        let directory = TemporaryDirectory("app-roster")
        let roster = try directory.write("username\nada\n", to: "roster.csv")
        let passwords = directory.file("pw.csv")
        #expect(
            try Subprocess.run("snapshare-server", ["admin", "import-roster", roster, "--passwords", passwords] + server.storeArguments)
                .status == 0)
        let oneTime = try #require(
            try String(contentsOfFile: passwords, encoding: .utf8).split(separator: "\n").last?.split(separator: ",").last.map(String.init))
        let home = TemporaryDirectory("ada")
        let app = try AppTmuxTests.app(server, home: home)
        try Self.shows(app, "Welcome to Snapshare")
        try app.send("ada", literal: true)
        try app.send("Tab")
        try app.send(oneTime, literal: true)
        try app.send("Enter")
        let asked = try Self.shows(app, "choose your own")
        #expect(!asked.contains(oneTime), "the password is never shown")
        // The one-time password itself cannot be kept: the form asks again, saying why.
        try app.send(oneTime, literal: true)
        try app.send("Enter")
        try Self.shows(app, "Repeat it")
        try app.send(oneTime, literal: true)
        try app.send("Enter")
        let refused = try Self.shows(app, "must differ from the one-time")
        #expect(refused.contains("New password"), "asked again for the new one: \(refused)")
        try app.send("ada's own password", literal: true)
        #expect(try Self.shows(app, "New password: ••••").contains("••••••••"), "typed as dots")
        try app.send("Enter")
        try Self.shows(app, "Repeat it")
        try app.send("ada's own password", literal: true)
        try app.send("Enter")
        try Self.shows(app, "Password changed")
        try app.send("2")
        try Self.shows(app, "Memes (0)")
        try app.send("q")
        let (session, sessionHome) = try server.session()
        _ = try session.login(username: "ada", password: "ada's own password")
        _ = try session.feeds()
        withExtendedLifetime(sessionHome) {}
    }
}
