import Foundation
import Server
import Shared
import Testing
import TestSupport

@Suite("Server lifecycle")
struct ServerLifecycleTests {
    private func configuration(_ directory: TemporaryDirectory) -> ServerConfiguration {
        var config = ServerConfiguration()
        config.port = 0
        config.dataDirectory = directory.path + "/data"
        config.certificatesDirectory = directory.path + "/certs"
        return config
    }

    @Test("a server released without stop() stops itself: its port closes and its threads go")
    func releasedServerStops() throws {
        let directory = TemporaryDirectory("snapshare-lifecycle")
        var port = 0
        do {
            let server = try SnapshareServer(configuration: configuration(directory), logger: Logger(level: .error))
            port = try server.start()
            let fd = try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
            Syscall.close(fd)
        }
        #expect(throws: SystemError.self, "nobody listens once the server is gone") {
            try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
        }
    }

    @Test("stop() twice, and a server that never started, are both fine")
    func stopIsIdempotent() throws {
        let directory = TemporaryDirectory("snapshare-lifecycle")
        let server = try SnapshareServer(configuration: configuration(directory), logger: Logger(level: .error))
        server.stop()
        server.stop()
        let started = try SnapshareServer(configuration: configuration(directory), logger: Logger(level: .error))
        let port = try started.start()
        started.stop()
        started.stop()
        #expect(throws: SystemError.self) { try Socket.connect(host: "127.0.0.1", port: port, timeout: 5) }
    }
}
