import Foundation
import Posix

/// What a folder holds, down to the last file: every path below it with its kind, mode and size
/// (and the folder's own mode), or that it does not exist. Two captures compare equal when nothing
/// was created, removed, grown or re-moded in between: how a test checks that a command that
/// failed left the disk as it found it.
package struct FolderState: Equatable, CustomStringConvertible, Sendable {
    /// One path, relative to the folder ("." for the folder itself).
    package struct Entry: Equatable, Sendable {
        package var path: String
        package var isFolder: Bool
        package var mode: Int
        package var size: Int
    }

    /// Nil when the folder does not exist.
    package let entries: [Entry]?

    /// Captures `path` now.
    package init(of path: String) {
        guard let top = try? FileSystem.status(path, followingLinks: false) else {
            entries = nil
            return
        }
        var found = [Entry(path: ".", isFolder: top.kind == .folder, mode: Int(top.permissions), size: 0)]
        let below = (FileManager.default.subpaths(atPath: path) ?? []).sorted()
        for relative in below {
            guard let status = try? FileSystem.status(path + "/" + relative, followingLinks: false) else { continue }
            let isFolder = status.kind == .folder
            found.append(Entry(path: relative, isFolder: isFolder, mode: Int(status.permissions), size: isFolder ? 0 : Int(status.size)))
        }
        entries = found
    }

    package var exists: Bool { entries != nil }

    package var description: String {
        guard let entries else { return "(does not exist)" }
        return entries.map { "\($0.path) \($0.isFolder ? "folder" : "\($0.size) bytes") mode \(String($0.mode, radix: 8))" }
            .joined(separator: ", ")
    }
}
