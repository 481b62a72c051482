import Foundation
import Posix

/// Session tokens of the bench users, kept in a file between runs (`--session-cache FILE`).
///
/// Every login is a deliberate scrypt hash on the server (tens of milliseconds of its CPU), so
/// a suite of runs against one server resumes the sessions of the first run instead. Lines are
/// `server<TAB>user<TAB>token`; the file is created owner-only, like the client's session file.
struct SessionCache {
    let path: String?
    private var tokens: [String: String] = [:]

    init(path: String?) {
        self.path = path
        guard let path, let data = FileManager.default.contents(atPath: path) else { return }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            tokens[fields[0] + "\t" + fields[1]] = String(fields[2])
        }
    }

    func token(server: String, user: String) -> String? { tokens[server + "\t" + user] }

    mutating func remember(_ token: String, server: String, user: String) { tokens[server + "\t" + user] = token }

    /// Writes the file (when a path was given).
    func save() throws {
        guard let path else { return }
        let text = tokens.keys.sorted().map { "\($0)\t\(tokens[$0]!)\n" }.joined()
        do { try StagedOutput.write(Array(text.utf8), to: path, mode: 0o600, replacing: true) } catch {
            throw BenchError("cannot write the session cache \(path): \(error.cause)")
        }
    }
}
