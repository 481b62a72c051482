import Foundation
import Synchronization
import Testing

@testable import Server

/// `--log-format json`: one object per line that JSONSerialization reads back as written.
@Suite struct JSONLogLineTests {
    private func object(_ line: String) throws -> [String: String] {
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(parsed as? [String: String], "an object of strings: \(line)")
    }

    @Test func aLineCarriesTimeLevelMessageAndFieldsInThatOrder() throws {
        let time = Date(timeIntervalSince1970: 1_767_600_000.125)
        let line = JSONLogLine.line(time: time, level: .warning, message: "hello", fields: ["user": "alice", "level": "ignored"])
        #expect(line == #"{"time":"2026-01-05T08:00:00.125Z","level":"warning","message":"hello","user":"alice"}"#)
        #expect(try object(line) == ["time": "2026-01-05T08:00:00.125Z", "level": "warning", "message": "hello", "user": "alice"])
    }

    @Test func quotesBackslashesNewlinesAndControlCharactersSurviveTheRoundTrip() throws {
        let message = "a \"quoted\" C:\\path\nline two\t\u{01}\u{1F} é 📷 </script>"
        let line = JSONLogLine.line(time: Date(), level: .info, message: message, fields: ["path": "/metrics"])
        #expect(!line.contains("\n"), "one line")
        #expect(try object(line)["message"] == message)
        #expect(try object(line)["path"] == "/metrics")
    }

    @Test func theLoggerWritesJSONOrTextAsConfigured() throws {
        let lines = LinesSink()
        Logger(level: .info, format: .json, sink: { lines.append($0) }).info("posted \"x\"")
        Logger(level: .info, format: .text, sink: { lines.append($0) }).log(.info, "plain", fields: ["k": "v"])
        Logger(level: .warning, format: .json, sink: { lines.append($0) }).info("not at this level")
        let written = lines.all
        #expect(written.count == 2)
        #expect(try object(written[0])["message"] == "posted \"x\"")
        #expect(written[1].hasSuffix(" INFO plain k=v"))
    }
}

/// Log lines kept in memory.
private final class LinesSink: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}
