import Foundation
import Testing

/// docs/development.md's layout against the tree: each line of the section that opens with a
/// folder names, as code, every folder in it, so a folder added, moved or renamed fails until the
/// guide says where it went.
@Suite("The development guide's layout")
struct DevelopmentGuideTests {
    /// The folders whose every subfolder the layout must name.
    static let described = ["Sources", "Sources/Shared", "Sources/Server", "Sources/Client", "Tests"]

    /// The layout's list items, by the folder that opens each (`- \`Sources/Server\`…`), with the
    /// item's text, continuation lines included.
    static func items() throws -> [String: Substring] {
        let guide = try RepositoryText.read("docs/development.md")
        let layout = try #require(RepositoryText.section("## Layout", of: guide), "docs/development.md has a section Layout")
        var items: [String: Substring] = [:]
        for item in layout.components(separatedBy: "\n- ").dropFirst() {
            guard let folder = item.firstMatch(of: /^`([^`]+)`/)?.1 else { continue }
            let text = item.components(separatedBy: "\n\n").first ?? item
            items[String(folder)] = text[...]
        }
        return items
    }

    @Test("the layout has a line for each folder of code, and each line names every folder in it", arguments: described)
    func everyFolderIsNamed(folder: String) throws {
        let item = try #require(try Self.items()[folder], "the layout has no line opening with `\(folder)`")
        let named = Set(RepositoryText.codeSpans(item))
        let base = RepositoryText.root.appendingPathComponent(folder)
        let present = try FileManager.default.contentsOfDirectory(atPath: base.path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: base.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
        #expect(present.count > 3, "the folders found in \(folder): \(present)")
        let missing = Set(present).subtracting(named)
        #expect(missing.isEmpty, "\(folder) has folders its line does not name: \(missing.sorted())")
    }
}
