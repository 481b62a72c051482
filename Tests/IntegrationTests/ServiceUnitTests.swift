import Foundation
import TestSupport
import Testing

/// contrib/snapshare-server.service and the settings file the package installs beside it.
@Suite("systemd unit")
struct ServiceUnitTests {
    static let contrib = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("contrib").path

    static var unit: String { (try? String(contentsOfFile: contrib + "/snapshare-server.service", encoding: .utf8)) ?? "" }

    @Test("systemd-analyze verify finds nothing to say about the unit (run with the built server in ExecStart)")
    func verifies() throws {
        let analyze = "/usr/bin/systemd-analyze"
        try #require(
            FileManager.default.isExecutableFile(atPath: analyze), "systemd-analyze is missing: apt-get install systemd (.ci/run does)")
        let directory = TemporaryDirectory("snapshare-unit")
        let path = directory.file("snapshare-server.service")
        let built = Self.unit.replacingOccurrences(of: "/usr/bin/snapshare-server", with: Subprocess.executable("snapshare-server"))
        try built.write(toFile: path, atomically: true, encoding: .utf8)
        let verified = try Subprocess.runTool(analyze, ["verify", path])
        #expect(verified.status == 0 && verified.stderr.isEmpty && verified.stdout.isEmpty, "\(verified.stdout)\(verified.stderr)")
        let security = try Subprocess.runTool(analyze, ["security", "--offline=true", path])
        let exposure = security.stdout.split(separator: "\n").last { $0.contains("Overall exposure level") }
        let score = exposure.flatMap { $0.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) } }
        #expect(score.map { $0 <= 2.0 } == true, "systemd rates the hardening \(exposure.map(String.init) ?? security.stdout)")
    }

    @Test("the unit is Type=notify with a SIGHUP reload, its own user and state folder, and the usual hardening")
    func shape() {
        let lines = Set(Self.unit.split(separator: "\n").map(String.init))
        for expected in [
            "Type=notify", "ExecReload=/bin/kill -HUP $MAINPID", "User=snapshare", "StateDirectory=snapshare",
            "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes", "ProtectHome=yes",
            "ExecStart=/usr/bin/snapshare-server --config /etc/snapshare/snapshare-server.conf",
        ] {
            #expect(lines.contains(expected), "missing \(expected)")
        }
    }

    @Test("the settings file the package installs starts a server (its paths moved into a temporary folder)")
    func shippedSettingsStart() throws {
        let directory = TemporaryDirectory("snapshare-shipped-conf")
        let shipped = try String(contentsOfFile: Self.contrib + "/snapshare-server.conf", encoding: .utf8)
            .replacingOccurrences(of: "/var/lib/snapshare", with: directory.path)
        let path = directory.file("snapshare-server.conf")
        try shipped.write(toFile: path, atomically: true, encoding: .utf8)
        let server = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"),
            port: ServerProcess.freePort(), arguments: ["--config", path])
        defer { server.killHard() }
        #expect(server.process.isRunning)
        #expect(FileManager.default.fileExists(atPath: directory.file("certs/ca.pem")))
    }
}
