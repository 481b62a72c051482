import Foundation
import PackagePlugin

/// Writes `BuildStamp.swift` for the target it serves: the short hash of the commit the package
/// was built from, with `-dirty` when the build had uncommitted changes (empty outside a git
/// checkout), so `--version` can say which build it is.
///
/// The command runs again when HEAD, the branch it points at or the index moves, and only the
/// executables depend on the stamp, so a commit costs a relink, not a rebuild of the modules.
@main
struct BuildStampPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("BuildStamp.swift")
        let script = """
            commit=$(git -C "$1" describe --always --dirty --abbrev=7 2>/dev/null || true)
            printf '/// Written by the BuildStamp plugin.\\npublic enum BuildStamp {\\n    /// The short hash of the commit built \
            (with -dirty for uncommitted changes), empty outside a git checkout.\\n    public static let commit = "%s"\\n}\\n' \
            "$commit" > "$2"
            """
        return [
            .buildCommand(
                displayName: "Stamping the build with its commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "stamp", root.path, output.path],
                inputFiles: Self.gitInputs(root), outputFiles: [output])
        ]
    }

    /// The files that move when the commit or the index does: HEAD, the branch's ref (or
    /// packed-refs) and the index, in a checkout or a linked worktree (whose `.git` is a file
    /// naming its folder, with refs in the shared one).
    static func gitInputs(_ root: URL) -> [URL] {
        let dotGit = root.appendingPathComponent(".git")
        var gitDir = dotGit
        if let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir: ") {
            let path = text.dropFirst(8).trimmingCharacters(in: .whitespacesAndNewlines)
            gitDir = URL(fileURLWithPath: path, relativeTo: root).standardizedFileURL
        }
        var common = gitDir
        if let text = try? String(contentsOf: gitDir.appendingPathComponent("commondir"), encoding: .utf8) {
            common =
                URL(fileURLWithPath: text.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: gitDir.appendingPathComponent("x"))
                .standardizedFileURL
        }
        let head = gitDir.appendingPathComponent("HEAD")
        guard let text = try? String(contentsOf: head, encoding: .utf8) else { return [] }
        var inputs = [head, gitDir.appendingPathComponent("index")]
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("ref: ") {
            let ref = common.appendingPathComponent(String(line.dropFirst(5)))
            inputs.append(FileManager.default.fileExists(atPath: ref.path) ? ref : common.appendingPathComponent("packed-refs"))
        }
        return inputs.filter { FileManager.default.fileExists(atPath: $0.path) }
    }
}
