import Foundation
import Testing

/// The C targets of docs/ARCHITECTURE.md, checked: each is imported only by the modules named
/// there. Package.swift cannot say this (a target sees the C modules of everything it depends on,
/// so Server could import COpenSSL through Crypto), so this reads the sources.
@Suite("C module imports")
struct CModuleImportTests {
    /// Who may import each C target: modules by name (`Sources/Shared/<name>` or `Sources/<name>`).
    static let allowed: [String: Set<String>] = [
        "COpenSSL": ["Crypto", "TLS"],
        "CLinux": ["Posix", "TerminalUI"],
        // Besides the SQLite module, the server's SQLite engine and the client's vacation files
        // still use SQLite's C names directly.
        "CSQLite": ["SQLite", "Server", "Client"],
        "CPostgreSQL": ["PostgreSQL"],
        "CImageCodec": ["Imaging"],
    ]

    @Test("each C module is imported only by the modules ARCHITECTURE.md names")
    func cModulesStayWhereTheDocumentSays() throws {
        var violations: [String] = []
        for (module, folder) in try Self.modules() {
            for imported in try Self.cImports(in: folder) {
                guard let owners = Self.allowed[imported] else {
                    violations.append("\(module) imports \(imported), which ARCHITECTURE.md does not list")
                    continue
                }
                if !owners.contains(module) { violations.append("\(module) imports \(imported)") }
            }
        }
        #expect(violations.isEmpty, "\(Set(violations).sorted())")
    }

    /// Every Swift module's folder: `Sources/Shared/<name>` for the core, `Sources/<name>` otherwise.
    static func modules() throws -> [(name: String, folder: URL)] {
        let root = FolderLayerTests.sourcesRoot
        let shared = root.appendingPathComponent("Shared")
        func folders(in url: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { FolderLayerTests.isDirectory(url.appendingPathComponent($0)) }
        }
        let core = try folders(in: shared).map { ($0, shared.appendingPathComponent($0)) }
        let others = try folders(in: root).filter { $0 != "Shared" }.map { ($0, root.appendingPathComponent($0)) }
        return core + others
    }

    /// The C modules (names starting with C and a capital) the Swift files in `folder` import.
    static func cImports(in folder: URL) throws -> Set<String> {
        let pattern = #/^(?:@preconcurrency |@testable |@_implementationOnly )*import (C[A-Z][A-Za-z0-9]*)\s*$/#
        let text = try FolderLayerTests.swiftSources(in: folder)
        return Set(text.split(separator: "\n").compactMap { line in
            (try? pattern.wholeMatch(in: line)).map { String($0.1) }
        })
    }
}
