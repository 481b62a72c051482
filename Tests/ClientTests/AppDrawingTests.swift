import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// Drawing is pure: a frame is laid out (the one step that may change state), then drawn, and
/// drawing it again draws the same cells and hands the loop the same thumbnails and picture, on
/// every screen, overlay and the trust screen, with thumbnails in half blocks and through kitty.
@Suite("App drawing", .serialized)
struct AppDrawingTests {
    /// What a frame hands the loop, and what the app holds that a draw could have changed.
    struct Frame: Equatable {
        let rows: [String]
        let grid: CellGrid
        let thumbnails: [KittyThumbnails.Placement]
        let picture: ObjectIdentifier?
        let status: String?
        let overlay: String
        let tab: AppTab

        init(_ app: AppModel, _ grid: CellGrid) {
            rows = (0..<grid.rows).map { grid.text(ofRow: $0) }
            self.grid = grid
            thumbnails = app.protocolThumbnails
            picture = app.protocolPicture.map { ObjectIdentifier($0.picture) }
            status = app.status?.text
            overlay =
                switch app.overlay {
                case nil: "none"
                case .help?: "help"
                case .text(let title, _)?: "text: \(title)"
                case .picture(_, let caption, _)?: "picture: \(caption)"
                case .dialog(let dialog)?: "dialog: \(dialog.title), \(dialog.field?.text ?? ""), \(dialog.refusal ?? "")"
                }
            tab = app.tab
        }
    }

    /// Lays `app` out at `columns` x `rows` and draws it three times: every draw is the same
    /// frame, and so is a second frame of the same window.
    static func expectPure(
        _ app: AppModel, _ name: String, columns: Int = 80, rows: Int = 24, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        app.layout(columns: columns, rows: rows)
        let first = Frame(app, app.draw())
        for attempt in 1...2 {
            let again = Frame(app, app.draw())
            let same = again == first
            #expect(same, "\(name): draw \(attempt + 1) differs:\n\(again.rows.joined(separator: "\n"))", sourceLocation: sourceLocation)
        }
        let next = Frame(app, app.render(columns: columns, rows: rows))
        let same = next == first
        #expect(same, "\(name): the next frame differs:\n\(next.rows.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test(
        "drawing a frame again draws the same and changes nothing, in every state, in half blocks and with kitty",
        arguments: AppKeyHelpTests.everyState)
    func drawingIsPure(state: String) throws {
        let home = TemporaryDirectory("app-home")
        let app = try AppKeyHelpTests.reached(state, home: home)
        for pictures in [PictureProtocol.halfblock, .kitty] {
            app.pictures = pictures
            Self.expectPure(app, "\(state) (\(pictures))")
            Self.expectPure(app, "\(state) at 120x40 (\(pictures))", columns: 120, rows: 40)
            Self.expectPure(app, "\(state) in a window too small (\(pictures))", columns: 60, rows: 20)
        }
    }

    @Test("with kitty the picker's ten thumbnails come from the layout, however often the frame is drawn, and their cells stay blank")
    func kittyThumbnailsComeFromTheLayout() throws {
        let home = TemporaryDirectory("app-home")
        let app = AppKeyHelpTests.app(home: home)
        app.pictures = .kitty
        app.layout(columns: 80, rows: 24)
        for _ in 0..<3 { _ = app.draw() }
        let thumbnails = app.protocolThumbnails
        #expect(thumbnails.count == 10, "\(thumbnails.count)")
        #expect(Set(thumbnails.map { ObjectIdentifier($0.picture) }).count == 10, "each sample once")
        let grid = app.draw()
        for thumbnail in thumbnails {
            let area = thumbnail.area
            let text = (area.y..<area.y + area.height).map { grid.text(ofRow: $0) }
                .map { String(Array($0).dropFirst(area.x).prefix(area.width)) }.joined()
            #expect(text.allSatisfy { $0 == " " }, "a thumbnail's cells are drawn: \(text)")
        }
        // Over a full-screen picture, none.
        app.overlay = PictureView.overlay(try AppKeyHelpTests.picture(), describing: "Untitled · Paris")
        app.layout(columns: 80, rows: 24)
        #expect(app.protocolThumbnails.isEmpty && app.protocolPicture != nil)
    }

    @Test("a pin's album and a random pin, against a real server: their thumbnails and drawing are the same however often drawn")
    func albumIsPure() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let session = try server.registeredSession("traveller")
        // Paris, where the photo source has photos.
        _ = try session.addPin(latitude: 48.85, longitude: 2.35)
        let app = AppScreenTests.app(session, home: home.path)
        guard AppAlbumTests.openAlbum(app) != nil else {
            Issue.record("the album found no photos")
            return
        }
        for pictures in [PictureProtocol.kitty, .halfblock] {
            app.pictures = pictures
            // The thumbnails arrive as their requests finish (inline here): drawn once all have.
            app.tick()
            app.layout(columns: 100, rows: 30)
            #expect(pictures == .halfblock || !app.protocolThumbnails.isEmpty, "no thumbnail placed")
            Self.expectPure(app, "the album (\(pictures))", columns: 100, rows: 30)
        }
        AppScreenTests.press(app, .escape, .character("r"))
        for pictures in [PictureProtocol.kitty, .halfblock] {
            app.pictures = pictures
            Self.expectPure(app, "a random pin (\(pictures))", columns: 100, rows: 30)
        }
    }
}
