#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the client keeps its state, following the XDG base directory convention.
public enum ClientStatePaths {
    /// `$SNAPSHARE_HOME` when set and non-empty; else `$XDG_CONFIG_HOME/snapshare` when that is
    /// an absolute path (the XDG spec says to ignore a relative one); else
    /// `$HOME/.config/snapshare`, taking the home directory from the password database when
    /// `HOME` is unset or empty. Trailing slashes are removed.
    public static func resolve(environment: [String: String]) -> String {
        if let home = environment["SNAPSHARE_HOME"], !home.isEmpty {
            return trimmed(home)
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return joined(config, "snapshare")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordDatabaseHome() ?? "."
        return joined(home, ".config/snapshare")
    }

    /// The current user's home directory from `getpwuid_r`, or nil.
    static func passwordDatabaseHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        let status = getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result)
        guard status == 0, result != nil, let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }

    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }

    private static func joined(_ base: String, _ relative: String) -> String {
        let base = trimmed(base)
        return base == "/" ? "/" + relative : base + "/" + relative
    }
}
