import Foundation
import Glibc
import Testing

@testable import Client

/// A fresh directory under the system's temporary directory, removed by `cleanUp`.
private struct TemporaryDirectory {
    let path: String

    init() throws {
        let base = NSTemporaryDirectory()
        var template = Array((base + (base.hasSuffix("/") ? "" : "/") + "client-state-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

private func mode(_ path: String) -> mode_t? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return info.st_mode & 0o7777
}

private func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
}

private func put(_ text: String, at path: String) {
    #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
}

private let fingerprintA = String(repeating: "ab", count: 32)
private let fingerprintB = String(repeating: "cd", count: 32)

@Suite struct ClientStateTests {
    // MARK: Paths

    @Test func snapshareHomeWinsOverEverything() {
        let environment = ["SNAPSHARE_HOME": "/s/home/", "XDG_CONFIG_HOME": "/xdg", "HOME": "/h"]
        #expect(ClientStatePaths.resolve(environment: environment) == "/s/home")
    }

    @Test func anEmptySnapshareHomeFallsThroughToXDG() {
        let environment = ["SNAPSHARE_HOME": "", "XDG_CONFIG_HOME": "/xdg", "HOME": "/h"]
        #expect(ClientStatePaths.resolve(environment: environment) == "/xdg/snapshare")
    }

    @Test func homeIsUsedWithoutXDGOrWithARelativeOne() {
        #expect(ClientStatePaths.resolve(environment: ["HOME": "/h"]) == "/h/.config/snapshare")
        #expect(ClientStatePaths.resolve(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]) == "/h/.config/snapshare")
        #expect(ClientStatePaths.resolve(environment: ["XDG_CONFIG_HOME": "rel", "HOME": "/h/"]) == "/h/.config/snapshare")
        #expect(ClientStatePaths.resolve(environment: ["HOME": "/"]) == "/.config/snapshare")
    }

    @Test func withoutHomeThePasswordDatabaseIsAsked() {
        // A container may run as a uid the password database does not know; then "." is used.
        let home = ClientStatePaths.passwordDatabaseHome() ?? "."
        let expected = (home == "/" ? "" : home) + "/.config/snapshare"
        #expect(ClientStatePaths.resolve(environment: [:]) == expected)
        #expect(ClientStatePaths.resolve(environment: ["HOME": ""]) == expected)
    }

    // MARK: Config

    @Test func aMissingDirectoryReadsAsEmptyAndIsNotCreated() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path + "/a/b")
        #expect(try state.config() == ClientConfig())
        #expect(try state.defaultServer == nil)
        #expect(try state.session(for: "h:1") == nil)
        #expect(try state.trustedFingerprint(for: "h:1") == nil)
        try state.removeSession(for: "h:1")
        #expect(mode(state.directory) == nil)
    }

    @Test func configRoundTripsAndTheDirectoryIsPrivate() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path + "/nested/snapshare")
        try state.saveConfig(server: "[::1]:7443", ca: "/etc/ca.pem")
        #expect(try state.defaultServer == "[::1]:7443")
        #expect(try state.caFile == "/etc/ca.pem")
        #expect(contents(state.configPath) == "{\n  \"server\": \"[::1]:7443\",\n  \"ca\": \"/etc/ca.pem\"\n}\n")
        #expect(mode(state.directory) == 0o700)
        #expect(mode(temporary.path + "/nested") == 0o700)
        #expect(mode(state.configPath) == 0o600)
        try state.saveConfig(ClientConfig(server: "h:2"))
        #expect(try state.config() == ClientConfig(server: "h:2", caFile: nil))
        // A relative CA path is saved absolute, so commands run from another folder still find it.
        try state.saveConfig(server: "h:2", ca: "certs/./ca.pem")
        #expect(try state.caFile == FileManager.default.currentDirectoryPath + "/certs/ca.pem")
    }

    @Test func unknownConfigKeysSurviveASave() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        put(#"{"theme": "dark", "server": "old:1"}"#, at: state.configPath)
        try state.saveConfig(server: "new:2", ca: nil)
        #expect(contents(state.configPath) == "{\n  \"server\": \"new:2\",\n  \"theme\": \"dark\"\n}\n")
    }

    @Test func aCorruptConfigIsAnErrorNamingTheFile() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        put("{\"server\": ", at: state.configPath)
        #expect(throws: ClientStateError.corrupt(file: state.configPath, reason: "not valid JSON")) {
            try state.config()
        }
        put(#"{"server": 7}"#, at: state.configPath)
        #expect(throws: ClientStateError.corrupt(file: state.configPath, reason: "\"server\" must be a string")) {
            try state.defaultServer
        }
        put("[]", at: state.configPath)
        do {
            _ = try state.config()
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "corrupt state file \(state.configPath): expected a JSON object (fix or delete it)")
        }
        #expect(FileManager.default.createFile(atPath: state.configPath, contents: Data([0xFF, 0xFE])))
        #expect(throws: ClientStateError.corrupt(file: state.configPath, reason: "not UTF-8 text")) { try state.config() }
    }

    // MARK: Sessions

    @Test func sessionsRoundTripPerServerWithMode0600() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path + "/state")
        let alice = StoredSession(token: "tok-123", username: "alice")
        try state.saveSession(alice, for: "localhost:7443")
        try state.saveSession(StoredSession(token: "other", username: "bob"), for: "[::1]:7443")
        #expect(try state.session(for: "localhost:7443") == alice)
        #expect(try state.session(for: "[::1]:7443")?.username == "bob")
        #expect(try state.session(for: "localhost:7444") == nil)
        let file = state.sessionsDirectory + "/localhost_7443.token"
        #expect(state.sessionPath(for: "localhost:7443") == file)
        #expect(contents(file) == "tok-123\nalice\n")
        #expect(mode(file) == 0o600)
        #expect(mode(state.sessionsDirectory) == 0o700)
        #expect(mode(state.directory) == 0o700)

        try state.saveSession(StoredSession(token: "tok-456", username: "alice"), for: "localhost:7443")
        #expect(try state.session(for: "localhost:7443")?.token == "tok-456")
        try state.removeSession(for: "localhost:7443")
        #expect(try state.session(for: "localhost:7443") == nil)
        #expect(try state.session(for: "[::1]:7443") != nil)
    }

    @Test func noTemporaryFilesAreLeftBehind() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        for index in 0..<5 { try state.saveSession(StoredSession(token: "t\(index)", username: "u"), for: "h:1") }
        try state.saveConfig(server: "h:1", ca: nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.sessionsDirectory) == ["h_1.token"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.directory).sorted() == ["config.json", "sessions"])
    }

    @Test func sessionFileNamesAreDistinctForDistinctServers() {
        #expect(ClientState.fileName(for: "localhost:7443") == "localhost_7443")
        #expect(ClientState.fileName(for: "[::1]:7443") == "%5B__1%5D_7443")
        #expect(ClientState.fileName(for: "a_b:1") != ClientState.fileName(for: "a:b:1"))
        #expect(ClientState.fileName(for: "../x:1") == "..%2Fx_1")
        #expect(ClientState.fileName(for: "é:1") == "%C3%A9_1")
    }

    @Test func aSessionWithANewlineIsRefused() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        #expect(throws: ClientStateError.invalidSession("the token must be one non-empty line")) {
            try state.saveSession(StoredSession(token: "a\nb", username: "u"), for: "h:1")
        }
        #expect(throws: ClientStateError.invalidSession("the username must be one non-empty line")) {
            try state.saveSession(StoredSession(token: "t", username: ""), for: "h:1")
        }
    }

    @Test func aCorruptSessionFileIsAnErrorNamingIt() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        try state.saveSession(StoredSession(token: "t", username: "u"), for: "h:1")
        let file = state.sessionPath(for: "h:1")
        put("just-a-token\n", at: file)
        #expect(throws: ClientStateError.corrupt(file: file, reason: "expected a token line, a username line and a fingerprint line")) {
            try state.session(for: "h:1")
        }
    }

    // MARK: Known servers

    @Test func theFirstFingerprintIsTrustedAndStored() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path + "/s")
        #expect(try state.check(fingerprint: fingerprintA, for: "h:1") == .trustedOnFirstUse)
        #expect(try state.trustedFingerprint(for: "h:1") == fingerprintA)
        #expect(contents(state.knownServersPath) == "h:1 \(fingerprintA)\n")
        #expect(mode(state.knownServersPath) == 0o600)
    }

    @Test func theSameFingerprintMatches() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        try state.trust(fingerprint: fingerprintA, for: "h:1")
        #expect(try state.check(fingerprint: fingerprintA.uppercased(), for: "h:1") == .matches)
        let colons = stride(from: 0, to: 64, by: 2).map { index -> String in
            let start = fingerprintA.index(fingerprintA.startIndex, offsetBy: index)
            return String(fingerprintA[start..<fingerprintA.index(start, offsetBy: 2)])
        }.joined(separator: ":")
        #expect(try state.check(fingerprint: colons, for: "h:1") == .matches)
    }

    @Test func aChangedFingerprintIsReportedAndNotStored() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        try state.trust(fingerprint: fingerprintA, for: "h:1")
        #expect(try state.check(fingerprint: fingerprintB, for: "h:1") == .changed(trusted: fingerprintA))
        #expect(try state.trustedFingerprint(for: "h:1") == fingerprintA)
        try state.trust(fingerprint: fingerprintB, for: "h:1")
        #expect(try state.check(fingerprint: fingerprintB, for: "h:1") == .matches)
    }

    @Test func serversKeepTheirLinesAndCommentsSurvive() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        put("# trusted servers\n\nb:2 \(fingerprintB)\n", at: state.knownServersPath)
        try state.trust(fingerprint: fingerprintA, for: "a:1")
        try state.trust(fingerprint: fingerprintA, for: "b:2")
        #expect(contents(state.knownServersPath) == "# trusted servers\n\nb:2 \(fingerprintA)\na:1 \(fingerprintA)\n")
        #expect(try state.forgetFingerprint(for: "b:2"))
        #expect(try !state.forgetFingerprint(for: "b:2"))
        #expect(contents(state.knownServersPath) == "# trusted servers\n\na:1 \(fingerprintA)\n")
    }

    @Test func aMalformedKnownServersLineIsAnErrorNamingTheFileAndLine() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        put("a:1 \(fingerprintA)\nb:2 not-hex\n", at: state.knownServersPath)
        #expect(throws: ClientStateError.corrupt(file: state.knownServersPath, reason: "line 2 is not 'host:port sha256-hex'")) {
            try state.trustedFingerprint(for: "a:1")
        }
    }

    @Test func badFingerprintsAndServerNamesAreRefused() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path)
        for bad in [
            "", "abc", String(repeating: "g", count: 64), String(repeating: "a", count: 65), "a:" + String(repeating: "b", count: 63),
        ] {
            #expect(throws: ClientStateError.invalidFingerprint(bad)) { try state.trust(fingerprint: bad, for: "h:1") }
        }
        for bad in ["", "h 1", "h\n1"] {
            #expect(throws: ClientStateError.invalidServer(bad)) { try state.check(fingerprint: fingerprintA, for: bad) }
        }
    }

    // MARK: Vacations

    @Test func theVacationsDirectoryIsInsideTheState() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        let state = ClientState(directory: temporary.path + "/s/")
        #expect(state.vacationsDirectory == temporary.path + "/s/vacations")
        #expect(try state.makeVacationsDirectory() == state.vacationsDirectory)
        #expect(mode(state.vacationsDirectory) == 0o700)
        #expect(try state.makeVacationsDirectory() == state.vacationsDirectory)
    }

    @Test func anUnwritableDirectoryIsASystemError() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanUp() }
        put("not a directory", at: temporary.path + "/file")
        let state = ClientState(directory: temporary.path + "/file/state")
        #expect(throws: ClientStateError.system(operation: "create directory", path: temporary.path + "/file/state", errno: ENOTDIR)) {
            try state.saveSession(StoredSession(token: "t", username: "u"), for: "h:1")
        }
        #expect(throws: ClientStateError.system(operation: "open", path: state.configPath, errno: ENOTDIR)) {
            try state.saveConfig(server: "h:1", ca: nil)
        }
        #expect(
            ClientStateError.system(operation: "open", path: "/x", errno: ENOENT).description == "cannot open /x: No such file or directory"
        )
    }
}
