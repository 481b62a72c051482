import Foundation
import Testing

/// The form of the code, as docs/development.md ("Style") states it: the formatter's configuration
/// is checked in and CI runs its lint, and no line is longer than the configuration's limit (the
/// formatter cannot break a string literal, so its lint lets a long one pass; this test does not).
@Suite("Source form")
struct SourceFormTests {
    /// The Swift the formatter and this test look at.
    static let folders = ["Sources", "Tests", "Plugins"]

    /// The line limit, read from `.swift-format` so the two cannot differ.
    static func lineLength() throws -> Int {
        let data = Data(try RepositoryText.read(".swift-format").utf8)
        let configuration = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(configuration["lineLength"] as? Int)
    }

    @Test("no line of Swift is longer than .swift-format's lineLength")
    func linesFit() throws {
        let limit = try Self.lineLength()
        #expect(limit == 140)
        var files = try Self.folders.flatMap { try RepositoryText.swiftFiles(under: $0) }
        files.append(("Package.swift", try RepositoryText.read("Package.swift")))
        #expect(files.count > 300)
        var long: [String] = []
        for (path, text) in files {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.unicodeScalars.count > limit {
                long.append("\(path):\(number + 1): \(line.unicodeScalars.count) columns")
            }
        }
        #expect(long.isEmpty, "lines over \(limit) columns:\n\(long.joined(separator: "\n"))")
    }

    @Test("CI runs swift format's lint, strict, over every folder of Swift")
    func ciLints() throws {
        let run = try RepositoryText.read(".ci/run")
        let command = "swift format lint --strict -r -p Sources Tests Plugins Package.swift"
        let lines = run.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(command))
        let build = try #require(lines.firstIndex(of: "swift build --build-tests"))
        #expect(lines.firstIndex(of: command).map { $0 < build } == true, "the lint runs before the build")
    }

    @Test(
        "public only where a program names it: the rest of the product's modules, the test support and the vectors are package or internal")
    func publicOnlyForPrograms() throws {
        let programs = try ["Sources/snapshare-server", "Sources/snapshare"].flatMap { try RepositoryText.swiftFiles(under: $0) }
        let named = Set(programs.flatMap { Self.identifiers(in: $0.1) })
        let declaration = /^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:static|final|nonisolated)\s+)*public\s+(?:(?:static|final)\s+)*(\w+)\s*(\w*)/
        var stray: [String] = []
        var count = 0
        for module in ["Server", "Client", "TestSupport", "ProtocolVectors"] {
            for (path, text) in try RepositoryText.swiftFiles(under: "Sources/\(module)") {
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    guard let match = line.firstMatch(of: declaration) else { continue }
                    count += 1
                    let name = match.output.1 == "init" ? "init" : String(match.output.2)
                    if name != "init" && !named.contains(name) { stray.append("\(path):\(number + 1): \(name)") }
                }
            }
        }
        #expect(count > 0 && count < 10, "\(count) public declarations")
        #expect(stray.isEmpty, "public but named by no program (make them package or internal):\n\(stray.joined(separator: "\n"))")
    }

    /// The identifiers of a Swift text, comments included (a superset is fine for this use).
    static func identifiers(in text: String) -> [String] {
        text.matches(of: /[A-Za-z_][A-Za-z0-9_]*/).map { String($0.output) }
    }
}
