import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// The Feeds tab in a small window.
@Suite("App: Feeds", .serialized)
struct AppFeedsScreenTests {
    @Test("at 80x24 a class with more snaps than rows says how many are above and below")
    func scrollHints() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("prolific")
        let picture = try SampleLibrary.all()[0].bytes()
        for _ in 0..<30 { _ = try poster.post(feed: "Memes", image: picture) }
        let home = TemporaryDirectory("app-home")
        let app = AppScreenTests.app(try server.registeredSession("reader"), home: home.path)
        AppScreenTests.press(app, .character("2"))
        var rows = AppStatusLineTests.rows(app)
        #expect(
            !rows.joined().contains("↑") && rows.contains { $0.hasSuffix(" more ") && $0.contains("↓ ") },
            "\(rows.joined(separator: "\n"))"
        )
        AppScreenTests.press(app, .end)
        rows = AppStatusLineTests.rows(app)
        #expect(rows.contains { $0.contains("↑ ") && $0.hasSuffix(" more ") }, "\(rows.joined(separator: "\n"))")
        // Feeds listed after Memes (33 rows with their headings, 20 on screen) are below still.
        let hidden = rows.compactMap { row in
            row.range(of: "↓ ").map { row[$0.upperBound...].split(separator: " ").first.flatMap { Int($0) } }
        }
        #expect(hidden.allSatisfy { ($0 ?? 0) > 0 })
    }
}
