import Foundation
import Testing

/// The README as a front page: it opens with the two commands, CI runs the test one and installs
/// the packages it lists, and its exit-code table is the client's.
@Suite("README's front page")
struct ReadmeFrontPageTests {
    static func readme() throws -> String { try RepositoryText.read("README.md") }

    /// The commands of a shell block, each without its comment.
    static func commands(_ lines: [Substring]) -> [String] {
        lines.map { line in
            (line.range(of: " #").map { line[..<$0.lowerBound] } ?? line).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// The lines of .ci/run that run something, trimmed.
    static func ciLines() throws -> [String] {
        try RepositoryText.read(".ci/run").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
    }

    @Test("the README opens with two commands: one starts the server, one runs the tests")
    func opensWithTwoCommands() throws {
        let readme = try Self.readme()
        let firstSection = readme.range(of: "\n## ").map { readme[..<$0.lowerBound] } ?? readme[...]
        let block = try #require(RepositoryText.firstCodeBlock(firstSection), "a code block before the first section")
        #expect(Self.commands(block) == ["swift run snapshare-server", "swift test"], "\(block)")
    }

    @Test(".ci/run runs the README's test command")
    func ciRunsTheTestCommand() throws {
        let readme = try Self.readme()
        let block = try #require(RepositoryText.firstCodeBlock(readme[...]))
        let test = try #require(Self.commands(block).last)
        #expect(try Self.ciLines().contains(test), ".ci/run does not run `\(test)`")
    }

    @Test("the README's apt-get line installs exactly the packages .ci/run installs")
    func packagesAreCIs() throws {
        let readme = try Self.readme().replacingOccurrences(of: "\\\n", with: " ")
        let line = try #require(readme.firstMatch(of: /apt-get install -y ([^\n]+)/), "the README has an apt-get install line")
        let listed = Set(line.1.split(separator: " ").map(String.init))
        let script = try RepositoryText.read(".ci/run")
        let array = try #require(script.firstMatch(of: /packages=\(([^)]*)\)/), ".ci/run names its packages")
        let installed = Set(array.1.split { $0 == " " || $0 == "\n" }.map(String.init))
        #expect(
            installed.count > 10 && listed == installed,
            "only the README: \(listed.subtracting(installed).sorted()); only .ci/run: \(installed.subtracting(listed).sorted())")
    }

    @Test("the PostgreSQL half .ci/run runs is the development guide's command")
    func postgresHalfIsTheGuides() throws {
        let guide = try RepositoryText.read("docs/development.md")
        let documented = try #require(guide.firstMatch(of: /\n(SNAPSHARE_TEST_DATABASE=postgresql swift test [^\n]+)/)).1
        let run = try #require(try Self.ciLines().first { $0.hasPrefix("SNAPSHARE_TEST_DATABASE=postgresql swift test") })
        #expect(run.replacingOccurrences(of: " --skip-build", with: "") == documented, "guide: \(documented)\n.ci/run: \(run)")
    }

    @Test(
        "no document written by hand says how many tests or suites there are",
        arguments: try DocumentLinkTests.documents().filter { $0 != "CHANGELOG.md" })
    func noTestCounts(document: String) throws {
        // A number of two digits or more before "tests" or "suites", not part of a name (X11 tests).
        let counts = try RepositoryText.read(document).matches(of: /(?:^|[^A-Za-z0-9])(\d[\d,]+ (?:tests|suites))\b/).map { String($0.1) }
        #expect(counts.isEmpty, "\(document) gives counts that go stale with every test added: \(counts)")
    }

    @Test("the README's exit-code table has one row for each code the client's ExitCode declares")
    func exitCodesAreTheClients() throws {
        let source = try RepositoryText.read("Sources/Client/Errors/ClientError.swift")
        let declared = Set(source.matches(of: /static let \w+ = ExitCode\(rawValue: (\d+)\)/).compactMap { Int($0.1) })
        let readme = try Self.readme()
        let table = try #require(RepositoryText.section("## Exit codes of `snapshare`", of: readme))
        let documented = Set(RepositoryText.linesOutsideCode(table).compactMap(RepositoryText.cells).compactMap { Int($0[0]) })
        #expect(declared.count > 5 && declared == documented, "ExitCode: \(declared.sorted()), README: \(documented.sorted())")
    }
}
