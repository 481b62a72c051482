import Posix

/// Where the client keeps its state, following the XDG base directory convention.
enum ClientStatePaths {
    /// `$SNAPSHARE_HOME` when set and non-empty; else `$XDG_CONFIG_HOME/snapshare` when that is
    /// an absolute path (the XDG spec says to ignore a relative one); else
    /// `$HOME/.config/snapshare`, taking the home directory from the password database when
    /// `HOME` is unset or empty. Trailing slashes are removed.
    static func resolve(environment: [String: String]) -> String {
        if let home = environment["SNAPSHARE_HOME"], !home.isEmpty {
            return trimmed(home)
        }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return joined(config, "snapshare")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? passwordDatabaseHome() ?? "."
        return joined(home, ".config/snapshare")
    }

    /// The current user's home directory from the password database, or nil.
    static func passwordDatabaseHome() -> String? {
        ThisProcess.homeFolder
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
