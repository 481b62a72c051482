import Foundation

/// A fresh directory under the system temp folder, removed when released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let path: String

    public init(_ label: String = "snapshare-test") {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to the file `name` with permission bits `mode`; returns its path.
    @discardableResult
    public func write(_ text: String, to name: String, mode: Int = 0o600) throws -> String {
        let target = file(name)
        try text.write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target)
        return target
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
