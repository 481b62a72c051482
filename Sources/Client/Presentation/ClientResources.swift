import Foundation
import Release

/// The files shipped with the client (the ten samples, the world outlines), found wherever it is
/// installed (`Installation`), never through `Bundle.module`, which stops the process when its
/// folder is missing and otherwise looks in the folder the package was built in.
enum ClientResources {
    /// The shipped file or folder `name`, or nil when the installation lacks it.
    static func url(_ name: String) -> URL? {
        Installation.resources(part: "client", bundle: "Snapshare_Client", marker: "world-110m.geojson")
            .map { $0.appendingPathComponent(name) }
            .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
    }

    /// Where the files were looked for, for messages.
    static var searched: String {
        Installation.candidates(part: "client", bundle: "Snapshare_Client").map(\.path).joined(separator: ", ")
    }
}
