import Foundation
import Release

/// Finds the files shipped with the server (the gazetteer and the album pool) wherever the
/// server is installed (`Installation`).
///
/// Not `Bundle.module`: its generated accessor stops the process with `fatalError` when the
/// folder is missing, and falls back to the folder the package was built in; a server copied
/// without its resources must say so and exit cleanly.
enum ServerResources {
    /// The folder holding `places.csv` and `AlbumPool/`.
    static func directory() throws(PhotoSourceError) -> URL {
        if let found = Installation.resources(part: "server", bundle: "Snapshare_Server", marker: "places.csv") { return found }
        let places = Installation.candidates(part: "server", bundle: "Snapshare_Server").map(\.path).joined(separator: ", ")
        throw PhotoSourceError("the server's data files are missing: places.csv and AlbumPool were looked for in \(places)")
    }

    /// The bytes of one resource file, e.g. `places.csv` or `AlbumPool/013-cat-0.png`.
    static func read(_ relativePath: String) throws(PhotoSourceError) -> [UInt8] {
        let url = try directory().appendingPathComponent(relativePath)
        do {
            return [UInt8](try Data(contentsOf: url))
        } catch {
            throw PhotoSourceError("cannot read the bundled file \(relativePath): \(error.localizedDescription)")
        }
    }
}
