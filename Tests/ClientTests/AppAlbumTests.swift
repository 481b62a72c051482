import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// A pin's album in the app against a real server: removing asks first, and the photos in the
/// current vacation are marked, with taking one out asked first too.
@Suite("App: a pin's album", .serialized)
struct AppAlbumTests {
    /// The app on the album of its user's first pin, once its download is over; nil when it found no photos.
    static func openAlbum(_ app: AppModel) -> String? {
        AppScreenTests.press(app, .character("3"))
        _ = AppScreenTests.screen(app)
        AppScreenTests.press(app, .enter)
        return openedAlbum(app)
    }

    static func openedAlbum(_ app: AppModel) -> String? {
        let album = downloaded(app)
        return album.contains("n New Collection") && !album.contains("No Images") ? album : nil
    }

    /// The screen once the album shown has finished downloading (30 s at most), the app ticking
    /// meanwhile: a tick is how the app asks the server, which tells it nothing unasked.
    static func downloaded(_ app: AppModel) -> String {
        var album = ""
        return Polling.first(timeout: 30, every: 0.05) { () -> String? in
            app.tick()
            album = AppScreenTests.screen(app)
            return album.contains("Album of pin 1 · ") && !album.contains("downloading") ? album : nil
        } ?? album
    }

    static func dialogText(_ app: AppModel) -> String? {
        if case .dialog(let dialog)? = app.overlay { dialog.question } else { nil }
    }

    @Test("x asks before removing a photo; v marks it visited (also in an app started later), and v on it asks before taking it out")
    func asksAndMarks() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let session = try server.registeredSession("traveller")
        // Paris, where the photo source has photos.
        _ = try session.addPin(latitude: 48.85, longitude: 2.35)
        let app = AppScreenTests.app(session, home: home.path)
        guard let album = Self.openAlbum(app) else {
            Issue.record("the album found no photos")
            return
        }
        #expect(album.contains(" photos · n New Collection"), "\(album)")
        let pin = try #require(try session.pins().first)
        let count = try session.album(pinID: pin.id).photos.count

        AppScreenTests.press(app, .character("x"))
        #expect(Self.dialogText(app)?.hasPrefix("Remove ") == true, "x asks first")
        AppScreenTests.press(app, .character("n"))
        #expect(try session.album(pinID: pin.id).photos.count == count && app.status?.text == "Nothing changed")

        AppScreenTests.press(app, .character("v"))
        #expect(app.status?.text == "Visited into My Vacation")
        var shown = AppScreenTests.screen(app)
        #expect(shown.contains("▶ ✓ ") && shown.contains("1 in My Vacation ✓"), "\(shown)")

        // Another app on this computer (the same user, the same vacations) marks it too.
        let later = AppScreenTests.app(session, home: home.path)
        AppScreenTests.press(later, .character("3"))
        _ = AppScreenTests.screen(later)
        AppScreenTests.press(later, .enter)
        shown = Self.openedAlbum(later) ?? ""
        #expect(shown.contains("▶ ✓ "), "the photo visited before is marked: \(shown)")

        // A second v asks, and takes it out only on y.
        AppScreenTests.press(app, .character("v"))
        #expect(Self.dialogText(app)?.hasPrefix("Take ") == true && Self.dialogText(app)?.contains("out of My Vacation?") == true)
        AppScreenTests.press(app, .character("y"))
        #expect(
            app.status?.text.hasPrefix("Took ") == true && app.status?.text.hasSuffix(" out of My Vacation") == true,
            "\(app.status?.text ?? "")")
        #expect(try VacationLibrary(state: ClientState(directory: home.path)).open(nil).allPhotos().isEmpty)
        #expect(!AppScreenTests.screen(app).contains("▶ ✓ "))

        AppScreenTests.press(app, .character("x"), .character("y"))
        #expect(app.status?.text.hasPrefix("Removed ") == true)
        #expect(try session.album(pinID: pin.id).photos.count == count - 1)

        // New Collection: "downloading" stays only while it does; its end replaces it.
        AppScreenTests.press(app, .character("n"))
        _ = Self.downloaded(app)
        #expect(app.status?.text.hasPrefix("The album of pin 1 is ready: ") == true, "\(app.status?.text ?? "")")
    }
}
