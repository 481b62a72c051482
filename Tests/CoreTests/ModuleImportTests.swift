import Foundation
import Testing

/// The module table of docs/ARCHITECTURE.md, checked against the sources, test targets included:
/// each module imports only the modules of ours and the C targets its row allows. SwiftPM already refuses a module
/// Package.swift does not list as a dependency; this holds the document and the code to one
/// picture, C targets included (a module that may not touch OpenSSL or Linux calls directly
/// must go through Crypto, TLS or Posix).
@Suite("Module imports")
struct ModuleImportTests {
    /// One row of the table.
    struct Row {
        var module: String
        var ours: Set<String>
        var cTargets: Set<String>
    }

    static let cTargets: Set<String> = ["COpenSSL", "CSQLite", "CPostgreSQL", "CLinux", "CImageCodec"]

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The rows of the table under "## Modules": `| \`Name\` | holds | ours | C targets |`.
    static func rows() throws -> [Row] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(RepositoryText.section("## Modules", of: text), "ARCHITECTURE.md has a section Modules")
        return section.split(separator: "\n").compactMap { line -> Row? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 6, cells[1].hasPrefix("`"), cells[1].hasSuffix("`") else { return nil }
            func names(_ cell: String) -> Set<String> {
                cell == "none" ? [] : Set(cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            }
            return Row(module: String(cells[1].dropFirst().dropLast()), ours: names(cells[3]), cTargets: names(cells[4]))
        }
    }

    /// Where a module's sources are: the core under Sources/Shared, the rest at the top, the test
    /// targets under Tests.
    static func folder(of module: String) -> URL {
        let shared = root.appendingPathComponent("Sources/Shared/\(module)")
        if FileManager.default.fileExists(atPath: shared.path) { return shared }
        let tests = root.appendingPathComponent("Tests/\(module)")
        return FileManager.default.fileExists(atPath: tests.path) ? tests : root.appendingPathComponent("Sources/\(module)")
    }

    /// The folders of one level of the tree that hold a module (the C targets and Shared itself aside).
    static func modules(under path: String) throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)
                .filter { !cTargets.contains($0) && $0 != "Shared" && !$0.hasPrefix(".") })
    }

    /// Every module named by an `import` line of the Swift sources under `folder`.
    static func imports(in folder: URL) throws -> Set<String> {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var found: Set<String> = []
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
                if words.count == 2, words[0] == "import" || words[0] == "@testable" { found.insert(String(words[1])) }
                if words.count == 3, words[0] == "@testable", words[1] == "import" { found.insert(String(words[2])) }
            }
        }
        return found
    }

    @Test("the table lists every module: the core, the server and the client, the executables, what the tests share and the test targets")
    func tableIsComplete() throws {
        let listed = Set(try Self.rows().map(\.module))
        let modules = try Self.modules(under: "Sources/Shared").union(Self.modules(under: "Sources")).union(Self.modules(under: "Tests"))
        #expect(
            listed == modules,
            """
            missing from ARCHITECTURE.md: \(modules.subtracting(listed).sorted()); \
            listed but absent: \(listed.subtracting(modules).sorted())
            """
        )
    }

    @Test("each module imports only the modules of ours and the C targets its row allows")
    func importsFollowTheTable() throws {
        let rows = try Self.rows()
        let ours = Set(rows.map(\.module))
        var violations: [String] = []
        for row in rows {
            let folder = Self.folder(of: row.module)
            guard FileManager.default.fileExists(atPath: folder.path) else {
                violations.append("\(row.module): no folder")
                continue
            }
            for name in try Self.imports(in: folder) {
                if Self.cTargets.contains(name) && !row.cTargets.contains(name) { violations.append("\(row.module) imports \(name)") }
                if ours.contains(name) && !row.ours.contains(name) { violations.append("\(row.module) imports \(name)") }
            }
        }
        #expect(violations.isEmpty, "\(violations.sorted())")
    }

    /// Every Swift target of Package.swift (C targets aside) with the dependencies it declares:
    /// the elements of `targets: [...]`, each a `.target`, `.executableTarget` or `.testTarget`.
    static func packageTargets() throws -> [String: Set<String>] {
        let code = RepositoryText.withoutComments(try RepositoryText.read("Package.swift"))
        // The package's own `targets:`, on a line of its own (a product's is on the product's line).
        let start = try #require(code.firstMatch(of: /\n\s*targets:\s*\[/)?.range, "Package.swift declares its targets")
        let list = try #require(RepositoryText.balanced(code, from: code.index(before: start.upperBound)))
        var targets: [String: Set<String>] = [:]
        for element in RepositoryText.arguments(list) {
            let text = String(element)
            guard let kind = text.prefixMatch(of: /\.(target|executableTarget|testTarget)\(/) else { continue }
            let arguments = RepositoryText.arguments(
                try #require(RepositoryText.balanced(text, from: text.index(before: kind.range.upperBound))))
            let named = arguments.compactMap { $0.wholeMatch(of: /name:\s*"([^"]+)"/)?.1 }.first
            let name = try #require(named, "a target without a name: \(text.prefix(60))")
            guard !cTargets.contains(String(name)) else { continue }
            var dependencies: Set<String> = []
            if let declared = arguments.first(where: { $0.hasPrefix("dependencies:") }).map(String.init) {
                let inner = try #require(
                    declared.firstIndex(of: "[").flatMap { RepositoryText.balanced(declared, from: $0) },
                    "\(name)'s dependencies: \(declared)")
                for dependency in RepositoryText.arguments(inner) {
                    dependencies.insert(
                        String(try #require(dependency.firstMatch(of: /"([^"]+)"/), "a dependency of \(name) without a name").1))
                }
            }
            targets[String(name)] = dependencies
        }
        return targets
    }

    @Test(
        """
        Package.swift declares the targets the table lists, \
        and each one's dependencies are exactly what its row names, test targets and C targets included
        """
    )
    func packageDeclaresTheTable() throws {
        let declared = try Self.packageTargets()
        let table = Dictionary(uniqueKeysWithValues: try Self.rows().map { ($0.module, $0.ours.union($0.cTargets)) })
        #expect(
            declared.count > 20 && Set(declared.keys) == Set(table.keys),
            """
            only in Package.swift: \(Set(declared.keys).subtracting(table.keys).sorted()); \
            only in the table: \(Set(table.keys).subtracting(declared.keys).sorted())
            """
        )
        for (target, dependencies) in declared {
            guard let row = table[target] else { continue }
            #expect(
                dependencies == row,
                """
                \(target): Package.swift only \(dependencies.subtracting(row).sorted()), \
                the table only \(row.subtracting(dependencies).sorted())
                """
            )
        }
    }

    @Test("no row names a module of ours or a C target its module does not import")
    func theTableNamesOnlyRealImports() throws {
        var unused: [String] = []
        for row in try Self.rows() {
            let imported = try Self.imports(in: Self.folder(of: row.module))
            for name in row.ours.union(row.cTargets).subtracting(imported) { unused.append("\(row.module) does not import \(name)") }
        }
        #expect(unused.isEmpty, "\(unused.sorted())")
    }

    @Test(
        """
        the diagram shows every module, each core module's arrows name all it imports of ours, \
        every arrow is an import, and each C target's importers are the table's
        """
    )
    func diagramFollowsTheTable() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let section = try #require(RepositoryText.section("## Modules", of: text))
        let diagram = try #require(RepositoryText.firstCodeBlock(section)).joined(separator: "\n")
        let rows = try Self.rows()
        let table = Dictionary(uniqueKeysWithValues: rows.map { ($0.module, $0) })
        let words = Set(diagram.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init))
        #expect(Set(table.keys).subtracting(words).isEmpty, "missing from the diagram: \(Set(table.keys).subtracting(words).sorted())")

        var arrows: [String: Set<String>] = [:]
        for arrow in diagram.matches(of: /([A-Za-z-]+) ──▶ ([A-Za-z-]+(?:, [A-Za-z-]+)*)/) {
            let targets = arrow.2.split(separator: ", ").map(String.init)
            arrows[String(arrow.1), default: []].formUnion(targets)
        }
        for (importer, targets) in arrows {
            let row = try #require(table[importer], "an arrow from \(importer), which the table does not have")
            #expect(targets.isSubset(of: row.ours), "\(importer) ──▶ \(targets.sorted()), but its row: \(row.ours.sorted())")
        }
        let core = try Self.modules(under: "Sources/Shared")
        for module in core {
            #expect(
                (arrows[module] ?? []) == (table[module]?.ours ?? []),
                "\(module): the diagram's arrows \((arrows[module] ?? []).sorted()), the table \((table[module]?.ours ?? []).sorted())")
        }

        for target in Self.cTargets {
            let shown = try #require(
                diagram.firstMatch(of: try Regex("\\b\(target) \\(([^)]*)\\)")), "the diagram names \(target)'s importers")
            let importers = Set((shown.output[1].substring ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(importers == Set(rows.filter { $0.cTargets.contains(target) }.map(\.module)), "\(target) (\(importers.sorted()))")
        }
    }
}
