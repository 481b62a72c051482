import Foundation

/// Where an installed program finds the files it ships with (the client's samples and world
/// map, the server's gazetteer and album pool), wherever it was installed, and never through a
/// path of the machine it was built on.
///
/// A part's folder is looked for, in order: in `$SNAPSHARE_RESOURCES/<part>`; beside the
/// executable's folder, in `../share/snapshare/<part>` (the tarball's layout, and `/usr` with the
/// Debian packages); next to the executable in SwiftPM's own `<bundle>.resources` (a build
/// folder, or binaries copied with it); in `/usr/share/snapshare/<part>` and
/// `/usr/local/share/snapshare/<part>`. The first that holds `marker` wins.
public enum Installation {
    /// The folder of `part` ("client" or "server") holding `marker`, or nil; `bundle` is the
    /// name SwiftPM gives the module's resources (`Snapshare_Client`).
    public static func resources(
        part: String, bundle: String, marker: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL? {
        candidates(part: part, bundle: bundle, environment: environment)
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(marker).path) }
    }

    /// Every place looked in, in order (for messages that say where a missing file was sought).
    public static func candidates(
        part: String, bundle: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [URL] {
        var folders: [URL] = []
        if let root = environment["SNAPSHARE_RESOURCES"], !root.isEmpty {
            folders.append(URL(fileURLWithPath: root).appendingPathComponent(part))
        }
        let executableFolder = executable().deletingLastPathComponent()
        folders.append(executableFolder.deletingLastPathComponent().appendingPathComponent("share/snapshare/\(part)"))
        // The program's own files before the system's: a build (or a test run) on a machine
        // with the packages installed reads what it was built with, not an older installation.
        folders.append(executableFolder.appendingPathComponent("\(bundle).resources"))
        folders.append(URL(fileURLWithPath: "/usr/share/snapshare/\(part)"))
        folders.append(URL(fileURLWithPath: "/usr/local/share/snapshare/\(part)"))
        return folders
    }

    /// The running executable, its symbolic links followed (`/usr/bin/snapshare` may be a link).
    static func executable() -> URL {
        let path =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }
}
