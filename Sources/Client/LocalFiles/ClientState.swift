import Foundation
import JSON

/// The client's files in its state directory (see `ClientStatePaths`):
///
///     config.json                 default server and CA file
///     sessions/<host_port>.token  one login per server: token line, username line (mode 0600)
///     known_servers               trusted certificate fingerprints, `host:port sha256-hex`
///     vacations/                  downloaded vacation albums
///
/// Reads tolerate missing files; writes create the directory (mode 0700) and replace files
/// atomically (mode 0600). Every call goes to the disk, so two client processes see each
/// other's changes; a read-modify-write (config, known_servers) from two processes at the
/// same instant keeps the last writer's version.
package struct ClientState: Sendable {
    package let directory: String

    /// State kept in `directory`; nothing is touched on disk until the first write.
    package init(directory: String) {
        var directory = directory
        while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
        self.directory = directory
    }

    /// The state of the directory `ClientStatePaths.resolve(environment:)` picks.
    package init(environment: [String: String]) {
        self.init(directory: ClientStatePaths.resolve(environment: environment))
    }

    var configPath: String { path("config.json") }
    var knownServersPath: String { path("known_servers") }
    var sessionsDirectory: String { path("sessions") }
    /// Where downloaded vacation albums go; see `makeVacationsDirectory()`.
    var vacationsDirectory: String { path("vacations") }

    // MARK: Config

    /// The saved defaults; empty when there is no `config.json`.
    package func config() throws(ClientStateError) -> ClientConfig {
        let object = try configObject()
        func string(_ key: String) throws(ClientStateError) -> String? {
            switch object.first(where: { $0.key == key })?.value {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw .corrupt(file: configPath, reason: "\"\(key)\" must be a string")
            }
        }
        return ClientConfig(server: try string("server"), caFile: try string("ca"))
    }

    /// The default server as `host:port`, or nil.
    var defaultServer: String? {
        get throws(ClientStateError) { try config().server }
    }

    /// The CA certificate file to verify servers with, or nil.
    package var caFile: String? {
        get throws(ClientStateError) { try config().caFile }
    }

    /// Writes `config.json` with exactly these values (nil removes a key); keys this version
    /// does not know are kept, so an older client does not erase a newer one's settings.
    func saveConfig(_ config: ClientConfig) throws(ClientStateError) {
        var object = try configObject().filter { $0.key != "server" && $0.key != "ca" }
        if let server = config.server { object.insert((key: "server", value: .string(server)), at: 0) }
        if let ca = config.caFile {
            // Saved absolute: later commands may run from another folder.
            let path = URL(fileURLWithPath: ca).standardizedFileURL.path
            object.insert((key: "ca", value: .string(path)), at: config.server == nil ? 0 : 1)
        }
        try write(JSONValue.object(object).toJSON(pretty: true) + "\n", to: configPath)
    }

    /// Writes `config.json` with this server and CA file (nil removes either).
    func saveConfig(server: String?, ca: String?) throws(ClientStateError) {
        try saveConfig(ClientConfig(server: server, caFile: ca))
    }

    private func configObject() throws(ClientStateError) -> [(key: String, value: JSONValue)] {
        guard let text = try StateFile.read(configPath) else { return [] }
        let value: JSONValue
        do {
            value = try JSONValue.parse(text)
        } catch {
            throw .corrupt(file: configPath, reason: "not valid JSON")
        }
        guard case .object(let members) = value else {
            throw .corrupt(file: configPath, reason: "expected a JSON object")
        }
        return members
    }

    // MARK: Sessions

    /// The file holding the session for `server`.
    func sessionPath(for server: String) -> String {
        sessionsDirectory + "/" + Self.fileName(for: server) + ".token"
    }

    /// The login saved for `server`, or nil.
    package func session(for server: String) throws(ClientStateError) -> StoredSession? {
        try readSession(sessionPath(for: server))
    }

    /// Every saved login with the server it is for.
    package func sessions() throws(ClientStateError) -> [(server: String, session: StoredSession)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sessionsDirectory)) ?? []
        var found: [(server: String, session: StoredSession)] = []
        for name in names.sorted() where name.hasSuffix(".token") {
            guard let server = Self.server(fromFileName: String(name.dropLast(6))),
                let session = try readSession(sessionsDirectory + "/" + name)
            else { continue }
            found.append((server, session))
        }
        return found
    }

    /// A session file: a token line, a username line, and (since fingerprints are kept) the
    /// server certificate's fingerprint line.
    private func readSession(_ file: String) throws(ClientStateError) -> StoredSession? {
        guard let text = try StateFile.read(file) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3 || lines.count == 4, lines.last?.isEmpty == true, !lines[0].isEmpty, !lines[1].isEmpty else {
            throw .corrupt(file: file, reason: "expected a token line, a username line and a fingerprint line")
        }
        let fingerprint = lines.count == 4 ? KnownServers.normalized(String(lines[2])) : nil
        return StoredSession(token: String(lines[0]), username: String(lines[1]), serverFingerprint: fingerprint)
    }

    /// Remembers `session` for `server`, replacing an earlier one.
    func saveSession(_ session: StoredSession, for server: String) throws(ClientStateError) {
        for (field, value) in [("token", session.token), ("username", session.username)] {
            guard !value.isEmpty, !value.contains(where: { $0.isNewline }) else {
                throw .invalidSession("the \(field) must be one non-empty line")
            }
        }
        let fingerprint = session.serverFingerprint.flatMap(KnownServers.normalized).map { $0 + "\n" } ?? ""
        try write("\(session.token)\n\(session.username)\n\(fingerprint)", to: sessionPath(for: server))
    }

    /// Forgets the session for `server`; nothing happens when there is none.
    func removeSession(for server: String) throws(ClientStateError) {
        try StateFile.remove(sessionPath(for: server))
    }

    // MARK: The current class

    /// The file holding the class chosen on `server` (`snapshare use`).
    func classPath(for server: String) -> String {
        sessionsDirectory + "/" + Self.fileName(for: server) + ".class"
    }

    /// The class chosen on `server` with `snapshare use`, or nil (the account's default class).
    package func currentClass(for server: String) throws(ClientStateError) -> String? {
        guard let text = try StateFile.read(classPath(for: server)) else { return nil }
        let handle = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return handle.isEmpty ? nil : handle
    }

    /// Remembers `handle` as the class to act in on `server`; nil forgets it.
    func saveCurrentClass(_ handle: String?, for server: String) throws(ClientStateError) {
        guard let handle else { return try StateFile.remove(classPath(for: server)) }
        try write(handle + "\n", to: classPath(for: server))
    }

    // MARK: Known servers

    /// The certificate fingerprint trusted for `server` (lowercase hex), or nil.
    func trustedFingerprint(for server: String) throws(ClientStateError) -> String? {
        try knownServers().fingerprint(for: server)
    }

    /// Trusts `fingerprint` for `server`, replacing any earlier one (an explicit re-trust).
    func trust(fingerprint: String, for server: String) throws(ClientStateError) {
        let fingerprint = try Self.validated(fingerprint, server: server)
        var known = try knownServers()
        guard known.fingerprint(for: server) != fingerprint else { return }
        known.set(fingerprint, for: server)
        try write(known.text, to: knownServersPath)
    }

    /// Trust on first use: stores the fingerprint of a server seen for the first time, and
    /// reports whether a known server still presents the certificate trusted before. A changed
    /// fingerprint is reported and never stored.
    ///
    /// `formerly` is a fingerprint that stood for the same server before (the leaf, which older
    /// clients pinned): finding it stored, the pin moves to `fingerprint` and matches.
    package func check(fingerprint: String, formerly: String? = nil, for server: String) throws(ClientStateError) -> FingerprintCheck {
        let fingerprint = try Self.validated(fingerprint, server: server)
        let former = formerly.flatMap(KnownServers.normalized)
        var known = try knownServers()
        switch known.fingerprint(for: server) {
        case fingerprint?:
            return .matches
        case let trusted? where trusted == former:
            known.set(fingerprint, for: server)
            try write(known.text, to: knownServersPath)
            return .matches
        case let trusted?:
            return .changed(trusted: trusted)
        case nil:
            known.set(fingerprint, for: server)
            try write(known.text, to: knownServersPath)
            return .trustedOnFirstUse
        }
    }

    /// Forgets the fingerprint of `server`; true when one was stored.
    @discardableResult
    func forgetFingerprint(for server: String) throws(ClientStateError) -> Bool {
        var known = try knownServers()
        guard known.remove(server) else { return false }
        try write(known.text, to: knownServersPath)
        return true
    }

    private func knownServers() throws(ClientStateError) -> KnownServers {
        guard let text = try StateFile.read(knownServersPath) else { return KnownServers() }
        return try KnownServers(parsing: text, file: knownServersPath)
    }

    private static func validated(_ fingerprint: String, server: String) throws(ClientStateError) -> String {
        guard !server.isEmpty, !server.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw .invalidServer(server)
        }
        guard let normalized = KnownServers.normalized(fingerprint) else { throw .invalidFingerprint(fingerprint) }
        return normalized
    }

    // MARK: Vacations

    /// Creates `vacations/` if needed and returns its path.
    func makeVacationsDirectory() throws(ClientStateError) -> String {
        try StateFile.makeDirectories(vacationsDirectory)
        return vacationsDirectory
    }

    // MARK: Files

    func path(_ name: String) -> String {
        directory == "/" ? "/" + name : directory + "/" + name
    }

    func write(_ text: String, to file: String) throws(ClientStateError) {
        try StateFile.makeDirectories(StateFile.split(file).directory)
        try StateFile.writeAtomically(text, to: file)
    }

    /// A file name for `server` that is the same for the same server and different for
    /// different ones: letters, digits, `.` and `-` stay, `:` becomes `_`, and every other
    /// byte (including `_` itself) becomes `%XX`, so `localhost:7443` is `localhost_7443`.
    /// The server a session file name stands for (the inverse of `fileName(for:)`).
    static func server(fromFileName name: String) -> String? {
        var bytes: [UInt8] = []
        var index = name.utf8.startIndex
        let utf8 = name.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "_") {
                bytes.append(UInt8(ascii: ":"))
            } else if byte == UInt8(ascii: "%") {
                let hexStart = utf8.index(after: index)
                guard let hexEnd = utf8.index(hexStart, offsetBy: 2, limitedBy: utf8.endIndex),
                    let value = UInt8(String(decoding: utf8[hexStart..<hexEnd], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index = hexEnd
                continue
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    static func fileName(for server: String) -> String {
        var name = ""
        for byte in server.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: ":"):
                name += "_"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                name += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return name
    }
}
