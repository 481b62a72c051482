import Foundation
import Testing

/// What docs/ARCHITECTURE.md names is there: every file and folder, every type and member of
/// ours, and for each thing the newcomer's tour adds, files named in full that exist.
@Suite("ARCHITECTURE.md names what is there")
struct ArchitectureDocumentTests {
    static func document() throws -> String { try RepositoryText.read("docs/ARCHITECTURE.md") }

    /// Names the document uses that are Swift's or Foundation's own, not ours.
    static let platformNames: Set<String> = ["OperationQueue", "TaskExecutor", "Task", "URLSession", "DispatchSemaphore", "DispatchGroup"]

    /// Every file and folder of the repository's code, tests, documents and scripts.
    static let repositoryPaths = RepositoryText.paths(under: ["Sources", "Tests", "Plugins", "docs", "scripts", "contrib", ".ci"])

    /// Whether a path as the document writes it (from the repository, or the tail of one, with or
    /// without `.swift` or a closing `/`) is a file or folder of the repository.
    static func names(_ written: String) -> Bool {
        let path = written.hasSuffix("/") ? String(written.dropLast()) : written
        return [path, path + ".swift"].contains { candidate in
            repositoryPaths.contains { $0 == candidate || $0.hasSuffix("/" + candidate) }
        }
    }

    @Test("every file and folder ARCHITECTURE.md names exists")
    func everyPathExists() throws {
        let paths = RepositoryText.codeSpans(try Self.document()[...])
            .filter { $0.contains("/") && !$0.contains(" ") && !$0.contains("://") && $0.first?.isLetter == true }
        #expect(paths.count > 20, "the paths found: \(paths)")
        let missing = paths.filter { !Self.names($0) }
        #expect(missing.isEmpty, "named but not there: \(missing)")
    }

    @Test("every type of ours ARCHITECTURE.md names is declared, and every member it names is declared in that type")
    func everyTypeExists() throws {
        let files = try (RepositoryText.swiftFiles(under: "Sources") + RepositoryText.swiftFiles(under: "Tests")).map {
            RepositoryText.withoutComments($0.text)
        }
        // Each type's declaring and extending files, found in one pass.
        var declaring: [String: [Int]] = [:]
        for (index, code) in files.enumerated() {
            for declaration in code.matches(of: /\b(?:class|struct|enum|protocol|actor|typealias|extension)\s+([A-Z]\w*)/) {
                declaring[String(declaration.1), default: []].append(index)
            }
        }
        let modules = Set(try ModuleImportTests.rows().map(\.module)).union(ModuleImportTests.cTargets)
        var checked = 0
        var missing: [String] = []
        for span in Set(RepositoryText.codeSpans(try Self.document()[...])) where !RepositoryText.exists(span) {
            guard let name = span.wholeMatch(of: /([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\.([a-z][A-Za-z0-9]*))?(?:\([a-zA-Z:]*\))?/),
                !modules.contains(String(name.1)), !Self.platformNames.contains(String(name.1))
            else { continue }
            checked += 1
            let holders = declaring[String(name.1)] ?? []
            guard !holders.isEmpty || Self.names(String(name.1)) else {
                missing.append(span)
                continue
            }
            if let member = name.2 {
                let declaration = try Regex("\\b(func|var|let|case|init)\\s+`?\(member)\\b|\\bcase\\b[^\\n]*[ ,.]\(member)\\b")
                    .wordBoundaryKind(.simple)
                if !holders.contains(where: { files[$0].contains(declaration) }) { missing.append(span) }
            }
        }
        #expect(checked > 50, "the names found: \(checked)")
        #expect(missing.isEmpty, "named but not declared: \(missing.sorted())")
    }

    @Test("each thing the newcomer's tour adds names, in full, files that exist")
    func tourNamesFilesThatExist() throws {
        let tour = try #require(RepositoryText.section("## A newcomer's tour", of: try Self.document()))
        let entries = tour.components(separatedBy: "\n- **").dropFirst()
        #expect(entries.count >= 4, "a request, a column, a screen and a picture protocol at least")
        for entry in entries {
            let title = entry.prefix { $0 != "*" }
            let paths = RepositoryText.codeSpans(entry[...]).filter { $0.hasPrefix("Sources/") || $0.hasPrefix("Tests/") }
            #expect(!paths.isEmpty, "\(title) names no file in full")
            for path in paths {
                #expect(RepositoryText.exists(path), "\(title) names \(path), which is not there")
            }
        }
    }
}
