import Client
import Foundation
import TestSupport
import Testing

/// Classes in the real app, full screen in tmux against a real server: the top row names the
/// class the app acts in, with a dot when another class has something unread; `c` lists the
/// classes with their unread counts and switches to the one chosen, and the Feeds tab follows.
@Suite("Classes in the app", .serialized, .enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct AppClassesTmuxTests {
    @Test("the header names the class, a dot tells of another's unread snaps, and c switches class")
    func switchClassWithC() throws {
        let server = try TestServer()
        let (adaHome, ada) = try AppTmuxTests.registeredHome(server, "ada")
        let made = try server.offline("admin", "create-class", "lab", "--name", "Lab Section", "--owner", "ada", "--code", "LAB-CODE")
        #expect(made.status == 0, "\(made.stderr)")
        _ = try ada.post(feed: "Memes", image: TestImages.sample(1))
        // Bob is in the lab only, and posts there: ada's lab has something unread.
        let bob = try server.registeredSession("bob", classCode: "LAB-CODE")
        let labSnap = try bob.post(feed: "Memes", image: TestImages.sample(2))

        let app = try AppTmuxTests.app(server, home: adaHome)
        var screen = try AppModerationTmuxTests.shows(app, "ada in class ●")
        try app.send("2")
        screen = try AppModerationTmuxTests.shows(app, "➤ sent")
        #expect(!screen.contains("#\(labSnap.id)"), "the lab's snap is not in this class's feeds: \(screen)")

        try app.send("c")
        screen = try AppModerationTmuxTests.shows(app, "Your classes")
        #expect(screen.contains("› class  Class  (student)"), "the current class is selected: \(screen)")
        #expect(screen.contains("lab  Lab Section  (owner) · 1 unread"), "\(screen)")
        try app.send("Down")
        try app.send("Enter")
        screen = try AppModerationTmuxTests.shows(app, "Now in lab (Lab Section)")
        screen = try AppModerationTmuxTests.shows(app, "#\(labSnap.id)")
        #expect(screen.contains("ada in lab"), "\(screen)")
        #expect(!screen.contains("ada in lab ●"), "the other class has nothing unread: \(screen)")

        // The choice is saved: the next command acts in the lab too.
        try app.send("q")
        let feeds = try Subprocess.run(
            "snapshare", ["feed", "Memes"],
            environment: ["SNAPSHARE_HOME": adaHome.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath])
        #expect(feeds.stdout.contains("bob"), "\(feeds.stdout)\(feeds.stderr)")
    }
}
