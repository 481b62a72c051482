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
        return text.split(separator: "\n").compactMap { line -> Row? in
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
        Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(path).path)
            .filter { !cTargets.contains($0) && $0 != "Shared" && !$0.hasPrefix(".") })
    }

    /// Every module named by an `import` line of the Swift sources under `folder`.
    static func imports(in folder: URL) throws -> Set<String> {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
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
        #expect(listed == modules, "missing from ARCHITECTURE.md: \(modules.subtracting(listed).sorted()); listed but absent: \(listed.subtracting(modules).sorted())")
    }

    @Test("each module imports only the modules of ours and the C targets its row allows")
    func importsFollowTheTable() throws {
        let rows = try Self.rows()
        let ours = Set(rows.map(\.module))
        var violations: [String] = []
        for row in rows {
            let folder = Self.folder(of: row.module)
            guard FileManager.default.fileExists(atPath: folder.path) else {
                violations.append("\(row.module): no folder"); continue
            }
            for name in try Self.imports(in: folder) {
                if Self.cTargets.contains(name) && !row.cTargets.contains(name) { violations.append("\(row.module) imports \(name)") }
                if ours.contains(name) && !row.ours.contains(name) { violations.append("\(row.module) imports \(name)") }
            }
        }
        #expect(violations.isEmpty, "\(violations.sorted())")
    }
}
