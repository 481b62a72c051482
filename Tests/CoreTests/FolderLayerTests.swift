import Foundation
import Testing

/// The folder layers of docs/ARCHITECTURE.md, checked: the test reads the document's two tables,
/// and inside `Server` and `Client` a folder may use the top-level types of folders in lower rows
/// only. The compiler cannot see folders, so this reads the sources: each folder's top-level type
/// declarations, then every identifier in the other folders' code (comments and string literals
/// left out).
@Suite("Folder layers")
struct FolderLayerTests {
    /// The rows of ARCHITECTURE.md's table `| <module> layer | folders |`, from the top; a folder may
    /// use folders of later rows only. A row's folders are the `Name/` that open its cell and each
    /// part after a ` · `.
    static func layers(of module: String) throws -> [[String]] {
        let lines = RepositoryText.linesOutsideCode(try RepositoryText.read("docs/ARCHITECTURE.md")[...])
        let header = try #require(
            lines.firstIndex { $0.hasPrefix("| \(module) layer |") }, "ARCHITECTURE.md has a table of \(module)'s layers")
        var layers: [[String]] = []
        for line in lines[lines.index(after: header)...] {
            guard line.hasPrefix("|") else { break }
            guard let cells = RepositoryText.cells(line) else { continue }
            let folders = try cells[1].components(separatedBy: " · ").map { part in
                try #require(
                    part.prefixMatch(of: /`([A-Za-z]+)\/`/).map { String($0.1) }, "a part of a layer that names no folder first: \(part)")
            }
            layers.append(folders)
        }
        return layers
    }

    @Test("each folder of Server and Client uses only the folders below it", arguments: ["Server", "Client"])
    func layersHold(module: String) throws {
        let layers = try Self.layers(of: module)
        let root = Self.sourcesRoot.appendingPathComponent(module)
        let present = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0 != "Resources" && Self.isDirectory(root.appendingPathComponent($0)) }
        let listed = Set(layers.flatMap { $0 })
        #expect(
            Set(present) == listed,
            "every folder of \(module) has a row in ARCHITECTURE.md's table: \(Set(present).symmetricDifference(listed).sorted())")

        var row: [String: Int] = [:]
        for (index, folders) in layers.enumerated() { for folder in folders { row[folder] = index } }
        var owner: [String: String] = [:]
        var code: [String: String] = [:]
        for folder in present {
            let text = try Self.swiftSources(in: root.appendingPathComponent(folder))
            code[folder] = Self.withoutCommentsAndStrings(text)
            for name in Self.topLevelTypes(in: text) { owner[name] = folder }
        }
        var violations: [String] = []
        for (folder, text) in code {
            guard let level = row[folder] else { continue }
            for word in Self.identifiers(in: text) {
                guard let other = owner[word], other != folder, let otherLevel = row[other] else { continue }
                if otherLevel <= level { violations.append("\(folder) uses \(word) of \(other)") }
            }
        }
        #expect(violations.isEmpty, "\(Set(violations).sorted())")
    }

    static var sourcesRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
    }

    static func isDirectory(_ url: URL) -> Bool {
        (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
    }

    static func swiftSources(in folder: URL) throws -> String {
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    /// Types declared at the start of a line and visible outside their file: nested types
    /// (indented) and private ones are their file's business.
    static func topLevelTypes(in text: String) -> [String] {
        let pattern = #/^(?:public |final |internal |package )*(?:final )?(?:class|struct|enum|protocol|actor) ([A-Z][A-Za-z0-9]*)/#
        return text.split(separator: "\n").compactMap { line in (try? pattern.prefixMatch(in: line)).map { String($0.1) } }
    }

    static func withoutCommentsAndStrings(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        func starts(_ prefix: String) -> Bool { text[index...].hasPrefix(prefix) }
        func skip(past end: String) {
            if let range = text[index...].range(of: end) { index = range.upperBound } else { index = text.endIndex }
        }
        while index < text.endIndex {
            if starts("//") {
                skip(past: "\n")
                result.append("\n")
            } else if starts("/*") {
                index = text.index(index, offsetBy: 2)
                skip(past: "*/")
            } else if starts("\"\"\"") {
                index = text.index(index, offsetBy: 3)
                skip(past: "\"\"\"")
            } else if starts("\"") {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "\"", text[index] != "\n" {
                    if text[index] == "\\" { index = text.index(after: index) }
                    if index < text.endIndex { index = text.index(after: index) }
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }

    static func identifiers(in text: String) -> Set<String> {
        Set(text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }
}
