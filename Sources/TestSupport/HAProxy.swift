import Foundation
import Posix

/// HAProxy in front of several instances, as `scripts/cluster.sh` runs it: TCP mode, TLS passed
/// through, least connections, on 127.0.0.1 and a free port. A connection to a dead instance is
/// sent to another at once (`option redispatch 1`: every retry may choose another server), so
/// clients see one server while any instance lives. With `healthPorts` (each instance's
/// `--metrics` port), an instance is in the rotation while its GET /health answers 200.
/// Stopped (SIGKILL) when released. Nil when Debian's `haproxy` is not installed.
package final class HAProxy: @unchecked Sendable {
    package static let path: String? = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }

    package let port: Int
    private let directory = TemporaryDirectory("snapshare-haproxy")
    private let child: RunningProcess

    package init(backendPorts: [Int], healthPorts: [Int] = []) throws {
        guard let path = Self.path else { throw ProcessError("haproxy is not installed") }
        precondition(healthPorts.isEmpty || healthPorts.count == backendPorts.count, "one health port per instance")
        port = ServerProcess.freePort()
        let servers = backendPorts.enumerated().map { index, port in
            let health = healthPorts.isEmpty ? "" : " port \(healthPorts[index])"
            return "    server instance-\(index + 1) 127.0.0.1:\(port) check\(health) inter 200ms fall 1 rise 2"
        }
        let checks = healthPorts.isEmpty ? "" : "    option httpchk GET /health\n    http-check expect status 200\n"
        let configuration = """
            global
                maxconn 1000
            defaults
                mode tcp
                timeout connect 200ms
                timeout client 1h
                timeout server 1h
                retries 3
                option redispatch 1
            frontend snapshare
                bind 127.0.0.1:\(port)
                default_backend instances
            backend instances
                balance leastconn
            \(checks)\(servers.joined(separator: "\n"))

            """
        let file = directory.path + "/haproxy.cfg"
        try StagedOutput.write(Array(configuration.utf8), to: file, mode: 0o644, replacing: true)
        child = try RunningProcess(
            path, ["-f", file, "-db"], environment: ProcessInfo.processInfo.environment,
            mergingStandardError: true)
        // Listening once a TCP connection goes through: haproxy -db says nothing when it is ready.
        let port = port
        let child = child
        let listening: Void? = try? eventually("haproxy to listen on port \(port)", timeout: 10) {
            guard child.process.isRunning else { throw ProcessError("haproxy exited") }
            return Self.accepts(port)
        }
        if listening == nil {
            child.kill()
            throw ProcessError("haproxy did not start on port \(port)")
        }
    }

    private static func accepts(_ port: Int) -> Bool {
        guard let fd = try? Socket.connect(host: "127.0.0.1", port: port, timeout: 0.2) else { return false }
        Syscall.close(fd)
        return true
    }

    deinit { child.kill() }
}
