import Foundation

/// HAProxy in front of several instances, as `scripts/cluster.sh` runs it: TCP mode, TLS passed
/// through, least connections, on 127.0.0.1 and a free port. A connection to a dead instance is
/// sent to another at once (`option redispatch 1`: every retry may choose another server), so
/// clients see one server while any instance lives. Stopped (SIGKILL) when released. Nil when Debian's `haproxy` is not installed.
public final class HAProxy: @unchecked Sendable {
    public static let path: String? = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].first { FileManager.default.isExecutableFile(atPath: $0) }

    public let port: Int
    private let directory = TemporaryDirectory("snapshare-haproxy")
    private let child: RunningProcess

    public init(backendPorts: [Int]) throws {
        guard let path = Self.path else { throw ProcessError("haproxy is not installed") }
        port = ServerProcess.freePort()
        let servers = backendPorts.enumerated().map { index, port in
            "    server instance-\(index + 1) 127.0.0.1:\(port) check inter 200ms fall 1 rise 2"
        }
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
            \(servers.joined(separator: "\n"))

            """
        let file = directory.path + "/haproxy.cfg"
        try configuration.write(toFile: file, atomically: true, encoding: .utf8)
        child = try RunningProcess(path, ["-f", file, "-db"], environment: ProcessInfo.processInfo.environment,
                                   mergingStandardError: true)
        // Listening once a TCP connection goes through.
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port) {
            guard child.process.isRunning, Date() < deadline else {
                child.kill()
                throw ProcessError("haproxy did not start on port \(port)")
            }
            usleep(20_000)
        }
    }

    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    deinit { child.kill() }
}
