import Foundation
import PackagePlugin

/// Writes `BuildStamp.swift` for the target it serves: the short hash of the commit the package
/// was built from (empty outside a git checkout), so `--version` can say which build it is.
///
/// The command runs again only when HEAD or the branch it points at moves, and only the
/// executables depend on the stamp, so a commit costs a relink, not a rebuild of the modules.
@main
struct BuildStampPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("BuildStamp.swift")
        let git = root.appendingPathComponent(".git")
        var inputs: [URL] = []
        let head = git.appendingPathComponent("HEAD")
        if let text = try? String(contentsOf: head, encoding: .utf8) {
            inputs.append(head)
            let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("ref: ") {
                let ref = git.appendingPathComponent(String(line.dropFirst(5)))
                inputs.append(FileManager.default.fileExists(atPath: ref.path) ? ref : git.appendingPathComponent("packed-refs"))
            }
        }
        let script = """
            commit=$(git -C "$1" rev-parse --short=7 HEAD 2>/dev/null || true)
            printf '/// Written by the BuildStamp plugin.\\npublic enum BuildStamp {\\n    /// The short hash of the commit built, empty outside a git checkout.\\n    public static let commit = "%s"\\n}\\n' "$commit" > "$2"
            """
        return [.buildCommand(displayName: "Stamping the build with its commit",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "stamp", root.path, output.path],
                              inputFiles: inputs, outputFiles: [output])]
    }
}
