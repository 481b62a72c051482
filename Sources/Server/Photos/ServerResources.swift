import Foundation

/// Finds the files shipped with the server (the gazetteer and the album pool).
///
/// SwiftPM copies them into `Snapshare_Server.resources` next to the executable. We look for
/// that folder ourselves instead of using `Bundle.module`, whose generated accessor stops the
/// process with `fatalError` when the folder is missing; a server copied without its resources
/// must say so and exit cleanly. A source checkout's `Sources/Server/Resources` is the fallback,
/// so tools run from odd places still work during development.
enum ServerResources {
    /// The folder holding `places.csv` and `AlbumPool/`.
    static func directory() throws(PhotoSourceError) -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = [Bundle.main.bundleURL.appendingPathComponent("Snapshare_Server.resources")]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("Snapshare_Server.resources"))
        }
        // This file is Sources/Server/Photos/ServerResources.swift; the resources are beside Photos.
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources"))
        for candidate in candidates where fileManager.fileExists(atPath: candidate.appendingPathComponent("places.csv").path) {
            return candidate
        }
        throw PhotoSourceError(
            "the server's data files are missing: expected Snapshare_Server.resources (with places.csv and AlbumPool) "
                + "next to the executable at \(candidates[0].deletingLastPathComponent().path)")
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
