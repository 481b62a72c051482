import Foundation
import Imaging

/// The 66 bundled 160x120 PNG photos of the built-in source (crops of CC0 and public-domain
/// photos; credits in the README), read once at startup.
package struct AlbumPool: Sendable {
    /// One photo of the pool.
    struct Entry: Sendable, Equatable {
        /// The file name, e.g. `013-cat-0.png`; the photo's reference in the built-in source.
        var fileName: String
        /// What it shows, from the file name: `cat`, `coffee`, `rocket`, ...
        var subject: String
        var bytes: [UInt8]
    }

    let entries: [Entry]

    /// Reads every `NNN-SUBJECT-K.png` of the bundled `AlbumPool` folder, in name order, and
    /// checks each is a PNG.
    static func bundled() throws(PhotoSourceError) -> AlbumPool {
        let folder = try ServerResources.directory().appendingPathComponent("AlbumPool")
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
        } catch {
            throw PhotoSourceError("cannot list the bundled album pool at \(folder.path): \(error.localizedDescription)")
        }
        var entries: [Entry] = []
        for name in names {
            let bytes = try ServerResources.read("AlbumPool/" + name)
            guard (try? ImageHeader.parse(bytes))?.format == .png else {
                throw PhotoSourceError("the bundled album photo \(name) is not a PNG")
            }
            let parts = name.dropLast(4).split(separator: "-")
            let subject = parts.count == 3 ? String(parts[1]) : "photo"
            entries.append(Entry(fileName: name, subject: subject, bytes: bytes))
        }
        guard !entries.isEmpty else { throw PhotoSourceError("the bundled album pool at \(folder.path) is empty") }
        return AlbumPool(entries: entries)
    }
}
