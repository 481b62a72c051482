import Foundation
import Testing

/// Every link in the README, the changelog and the documents under docs/ leads somewhere: to a
/// file or folder of the repository and, for `#anchor`, to a heading there; and every path of the
/// repository they name in code (`scripts/…`, `Sources/…`) exists.
@Suite("Document links")
struct DocumentLinkTests {
    /// The Markdown the project keeps by hand (docs/benchmarks.md's tables are written by a script,
    /// which keeps its own).
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: RepositoryText.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md", "CHANGELOG.md", "certs/README.md"] + docs.sorted()
    }

    @Test("every relative link and image leads to a file that exists, and every #anchor to a heading of it", arguments: try documents())
    func linksLeadSomewhere(document: String) throws {
        let text = try RepositoryText.read(document)
        let folder = URL(fileURLWithPath: document).deletingLastPathComponent().relativePath
        var broken: [String] = []
        for target in RepositoryText.linkTargets(text[...]) where !target.contains("://") && !target.hasPrefix("mailto:") {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let file =
                parts[0].isEmpty
                ? document
                : URL(fileURLWithPath: folder == "." ? String(parts[0]) : folder + "/" + parts[0]).standardized.relativePath
            guard RepositoryText.exists(file) else {
                broken.append("\(target): no \(file)")
                continue
            }
            if parts.count == 2, !RepositoryText.anchors(try RepositoryText.read(file)).contains(String(parts[1])) {
                broken.append("\(target): no heading #\(parts[1]) in \(file)")
            }
        }
        #expect(broken.isEmpty, "\(document): \(broken)")
    }

    /// The changelog is left out: it is history, and may name what a later release removed.
    @Test("every path of the repository a document names in code exists", arguments: try documents().filter { $0 != "CHANGELOG.md" })
    func namedPathsExist(document: String) throws {
        let roots = ["Sources/", "Tests/", "scripts/", "docs/", "contrib/", "Plugins/", ".ci/"]
        let named = RepositoryText.codeSpans(try RepositoryText.read(document)[...]).compactMap { span -> String? in
            guard var path = span.split(separator: " ").first.map(String.init), roots.contains(where: path.hasPrefix) else { return nil }
            while let last = path.last, ".,:;".contains(last) { path.removeLast() }
            return path
        }
        let missing = named.filter { !RepositoryText.exists($0) && !RepositoryText.exists($0 + ".swift") }
        #expect(missing.isEmpty, "\(document) names \(missing)")
    }
}
