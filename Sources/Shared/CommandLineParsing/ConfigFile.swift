import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A settings file in the shape redis.conf and mosquitto.conf use: one `name = value` per line,
/// where `name` is a long option's name without its dashes (`snap-ttl = 7d`), lines starting
/// with `#` are comments, and blank lines are ignored. A value may be wrapped in double quotes to
/// keep spaces at its ends; a repeatable option is given once per line.
public struct ConfigFile: Sendable {
    /// One setting and the line it is on.
    public struct Entry: Sendable, Equatable {
        /// The option's long name with its dashes, e.g. `--snap-ttl`.
        public var option: String
        public var value: String
        public var line: Int
    }

    public let path: String
    public let entries: [Entry]
    /// The file's permission bits and group, to warn when secrets in it are readable by others.
    public let mode: mode_t
    public let group: gid_t

    /// Reads and parses `path`; a file that cannot be read or a line that is not a setting
    /// throws a `UsageError`-ready message naming the file and line.
    public init(path: String) throws(ConfigFileError) {
        func unreadable(_ reason: String) -> ConfigFileError { ConfigFileError("cannot read the config file \(path): \(reason)") }
        let found: FileStatus?
        do { found = try FileSystem.status(path) } catch { throw unreadable(error.reason) }
        guard let info = found else { throw unreadable(SystemError("stat", errno: ENOENT).reason) }
        guard info.kind == .file else { throw ConfigFileError("the config file \(path) is not a regular file") }
        // A config file is a few hundred bytes; anything far larger is not one.
        guard info.size <= 1 << 20 else { throw ConfigFileError("the config file \(path) is larger than 1 MiB") }
        let bytes: [UInt8]
        do { bytes = try WholeFile.read(path, maximumBytes: 1 << 20) } catch { throw unreadable(error.reason) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ConfigFileError("\(path): not UTF-8 text") }
        try self.init(text: text, path: path, mode: info.permissions & 0o777, group: info.group)
    }

    /// Parses `text` as the contents of `path`.
    public init(text: String, path: String, mode: mode_t = 0o600, group: gid_t = ThisProcess.effectiveGroupID) throws(ConfigFileError) {
        self.path = path
        self.mode = mode
        self.group = group
        var entries: [Entry] = []
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let number = index + 1
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigFileError("\(path):\(number): expected 'name = value', found '\(line)'")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.hasPrefix("-"), !name.contains(where: \.isWhitespace) else {
                throw ConfigFileError(
                    "\(path):\(number): '\(name)' is not a setting name "
                        + "(write it as the long option without its dashes, e.g. snap-ttl = 7d)"
                )
            }
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            entries.append(Entry(option: "--" + name, value: value, line: number))
        }
        self.entries = entries
    }

    /// `path:line`, for messages about a setting.
    public func location(_ entry: Entry) -> String { "\(path):\(entry.line)" }

    /// Whether users other than its owner and the group this program runs as may read it (a
    /// service's settings are typically root:snapshare 0640: readable by the service, no one else).
    public var isReadableByOthers: Bool { mode & 0o004 != 0 || (mode & 0o040 != 0 && group != ThisProcess.effectiveGroupID) }
}

/// A config file that cannot be used, with the file (and line) in the message.
public struct ConfigFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
