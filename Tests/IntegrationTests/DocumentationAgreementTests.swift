import Foundation
import TestSupport
import Testing

/// README.md, the guides it links, docs/PROTOCOL.md and the programs' own `--help` and `--version`
/// say the same: every value here is read from both sides and compared, nothing is written into
/// the test, so a new protocol version or a changed default fails until the documents follow it.
@Suite("README, the guides, --help and PROTOCOL.md agree")
struct DocumentationAgreementTests {
    static func document(_ relative: String) throws -> String {
        try String(contentsOf: TestImages.repository.appendingPathComponent(relative), encoding: .utf8)
    }

    /// The guides under docs/ that the README's "Guides" section links, each once, in its order.
    static func guides() throws -> [String] {
        let readme = try document("README.md")
        let start = try #require(readme.range(of: "\n## Guides\n"), "README has a Guides section")
        let rest = readme[start.upperBound...]
        let section = rest.range(of: "\n## ").map { rest[..<$0.lowerBound] } ?? rest
        var guides: [String] = []
        for link in section.matches(of: /\]\((docs\/[a-z-]+\.md)(?:#[^)]*)?\)/) where !guides.contains(String(link.1)) {
            guides.append(String(link.1))
        }
        return guides
    }

    /// The one guide with a section `heading`, and its text.
    static func guide(with heading: String) throws -> (path: String, text: String) {
        let holding = try guides().map { ($0, try document($0)) }.filter { $0.1.contains("\n\(heading)\n") }
        try #require(holding.count == 1, "one guide has \(heading): \(holding.map(\.0))")
        return holding[0]
    }

    /// Each option of a `--help` text with its help (continuation lines joined).
    static func helpOptions(_ help: String) -> [(name: String, help: String)] {
        var options: [(name: String, help: String)] = []
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("ptions:") {
                inOptions = true
                continue
            }
            if line.isEmpty || !line.hasPrefix(" ") {
                inOptions = false
                continue
            }
            guard inOptions else { continue }
            if let row = line.wholeMatch(of: /\s+(?:-\w, )?\s*(--[a-z0-9-]+)(?: \S+)?(?:\s{2,}(.*))?/) {
                options.append((String(row.1), String(row.2 ?? "")))
            } else if !options.isEmpty {
                options[options.count - 1].help += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return options.filter { $0.name != "--help" && $0.name != "--version" }
    }

    /// The `[default: X]` of an option's help, nil when it states none.
    static func stated(_ help: String) -> String? {
        help.firstMatch(of: /\[default: ([^\]]+)\]/).map { String($0.1) }
    }

    /// The configuration table of the guide that has it: every option a row names, with the row's
    /// default column.
    static func documentedDefaults() throws -> [String: String] {
        let text = try guide(with: "## Configuration").text
        let section = try #require(text.range(of: "\n## Configuration\n").map { text[$0.upperBound...] })
        let table = section.split(separator: "\n").drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        var defaults: [String: String] = [:]
        for row in table.dropFirst(2) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            let value = cells[2].replacingOccurrences(of: "`", with: "")
            for name in cells[1].matches(of: /--[a-z0-9-]+/) { defaults[String(name.output)] = value }
        }
        return defaults
    }

    /// `1, 2 and 3` or `1 and 2` or `1` as numbers.
    static func numbers(_ list: Substring) -> [Int] {
        list.matches(of: /\d+/).compactMap { Int($0.output) }
    }

    @Test("every option snapshare-server --help lists has its row in the instructor's configuration table, with the same default")
    func serverDefaults() throws {
        let help = try Subprocess.run("snapshare-server", ["--help"])
        #expect(help.status == 0)
        let options = Self.helpOptions(help.stdout)
        #expect(options.count > 30, "the parser found the options: \(options.map(\.name))")
        let documented = try Self.documentedDefaults()
        for option in options {
            let row = try #require(documented[option.name], "the configuration table has no row for \(option.name)")
            #expect(
                (Self.stated(option.help) ?? "") == row,
                "\(option.name): --help says \(Self.stated(option.help) ?? "no default"), the guide says '\(row)'")
        }
        for name in documented.keys {
            #expect(
                options.contains { $0.name == name },
                "the configuration table documents \(name), which snapshare-server --help does not list")
        }
    }

    @Test("the protocol versions served by default are the same in --help, --version, the README and its guides, and PROTOCOL.md")
    func protocolVersions() throws {
        let help = try Subprocess.run("snapshare-server", ["--help"])
        let option = try #require(Self.helpOptions(help.stdout).first { $0.name == "--protocol-versions" })
        let range = try #require(Self.stated(option.help)?.wholeMatch(of: /(\d+)-(\d+)/), "\(option.help)")
        let (low, high) = (try #require(Int(range.1)), try #require(Int(range.2)))
        let served = Array(low...high)

        for program in ["snapshare-server", "snapshare"] {
            let version = try Subprocess.run(program, ["--version"]).stdout
            #expect(version.contains("(protocol \(low)-\(high),"), "\(program) --version: \(version)")
        }

        #expect(try Self.documentedDefaults()["--protocol-versions"] == "\(low)-\(high)")
        let documents = try (["README.md"] + Self.guides()).map(Self.document).joined(separator: "\n")
        let examples = documents.matches(of: /\(protocol (\d+)-(\d+),/)
        #expect(
            !examples.isEmpty && examples.allSatisfy { Int($0.1) == low && Int($0.2) == high },
            "the --version examples: \(examples.map { String($0.0) })")
        let today = documents.matches(of: /today versions (\d+) to (\d+)/)
        #expect(
            today.count == 1 && today.allSatisfy { Int($0.1) == low && Int($0.2) == high },
            "Upgrading says which versions are served today: \(today.map { String($0.0) })")
        for example in documents.matches(of: /--protocol-versions (\d+)(?:-(\d+))?`/) {
            let upper = example.2.flatMap { Int($0) } ?? Int(example.1)
            #expect(upper == high, "an example that would stop serving version \(high): \(example.0)")
        }

        let protocolDocument = try Self.document("docs/PROTOCOL.md")
        let title = try #require(protocolDocument.firstMatch(of: /# Snapshare wire protocol, versions ([0-9, and]+)\n/))
        #expect(Self.numbers(title.1) == served, "PROTOCOL.md's title: \(title.0)")
        let listed = try #require(protocolDocument.firstMatch(of: /\*\*Versions served\*\*[^\n]*\*\*([0-9, and]+)\*\*/))
        #expect(Self.numbers(listed.1) == served, "PROTOCOL.md section 7: \(listed.0)")
        for version in served {
            #expect(protocolDocument.contains("\n| \(version) | "), "PROTOCOL.md's version table has a row for version \(version)")
        }
    }

    @Test("README's table of exit codes has the codes snapshare --help lists")
    func exitCodes() throws {
        let help = try Subprocess.run("snapshare", ["--help"]).stdout
        let section = try #require(help.range(of: "Exit codes:").map { help[$0.upperBound...] })
        let listed = Set(section.split(separator: "\n").compactMap { $0.wholeMatch(of: /\s+(\d+)\s+.*/).flatMap { Int($0.1) } })
        let readme = try Self.document("README.md")
        let table = try #require(readme.range(of: "## Exit codes of `snapshare`").map { readme[$0.upperBound...] })
        let documented = Set(
            table.split(separator: "\n").prefix { !$0.hasPrefix("`snapshare-server`") }
                .compactMap { $0.wholeMatch(of: /\| (\d+) \|.*/).flatMap { Int($0.1) } })
        #expect(listed.count > 5 && listed == documented, "--help: \(listed.sorted()), README: \(documented.sorted())")
    }
}
