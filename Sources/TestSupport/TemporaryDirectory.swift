import Foundation
import Posix

/// A fresh directory under the system temp folder, removed when released.
package final class TemporaryDirectory: @unchecked Sendable {
    package let path: String

    package init(_ label: String = "snapshare-test") {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
        try! FileSystem.makeFolders(path, mode: 0o755)
    }

    package func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to the file `name`, which has permission bits `mode` from its creation;
    /// returns its path.
    @discardableResult
    package func write(_ text: String, to name: String, mode: Int = 0o600) throws -> String {
        let target = file(name)
        try StagedOutput.write(Array(text.utf8), to: target, mode: mode_t(mode), replacing: true)
        return target
    }

    deinit { FileSystem.removeTree(path) }
}
