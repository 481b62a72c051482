import Foundation
import TLS
import TestSupport
import Testing
import Wire

/// `snapshare` against a server from the future that no longer serves any protocol version
/// this client speaks. No such server exists yet, so a stand-in (Python's ssl module, TLS 1.3)
/// reads the client's Hello and answers it with the refusal a real server sends, encoded by
/// our codec.
@Suite struct ClientVersionRefusalTests {
    static let standIn = """
        import socket, ssl, sys
        chain, key, port, reply = sys.argv[1], sys.argv[2], int(sys.argv[3]), bytes.fromhex(sys.argv[4])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_3
        context.load_cert_chain(chain, key)
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(1)
        print("ready", flush=True)
        connection = context.wrap_socket(listener.accept()[0], server_side=True)
        def exactly(count):
            data = b""
            while len(data) < count:
                chunk = connection.recv(count - len(data))
                if not chunk: sys.exit("the client left")
                data += chunk
            return data
        head = exactly(12)
        exactly(int.from_bytes(head[0:4], "big"))
        # The refusal answers the Hello's request id.
        connection.sendall(reply[:8] + head[8:12] + reply[12:])
        connection.close()
        """

    @Test("a server that serves none of the client's versions: snapshare prints its message as it is and exits 9")
    func refusedByANewerServer() throws {
        let directory = TemporaryDirectory("snapshare-future-server")
        let certificates = try DevCertificateAuthority.ensure(directory: directory.file("certs"), hosts: ["localhost", "127.0.0.1"])
        let message = "this server speaks protocol versions 3-4 and you offered 1-2: upgrade snapshare (version 2.0 or newer)"
        let refusal = Frame(ErrorMessage(code: .unsupportedVersion, fatal: true, message: message), requestID: 0).encoded()
        let script = try directory.write(Self.standIn, to: "future-server.py")
        let port = ServerProcess.freePort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            script, certificates.serverChainPath, certificates.serverKeyPath, "\(port)",
            refusal.map { String(format: "%02x", $0) }.joined(),
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        #expect(OutputLines(output.fileHandleForReading).next(timeout: 30) == "ready")

        let home = TemporaryDirectory("snapshare-future-home")
        let result = try Subprocess.run(
            "snapshare", ["--server", "127.0.0.1:\(port)", "--ca", certificates.caCertificatePath, "whoami"],
            environment: ["SNAPSHARE_HOME": home.path])
        #expect(result.status == 9, "exit 9: the versions do not meet (\(result.stderr))")
        #expect(result.stderr.hasPrefix("snapshare: \(message)\n"), "\(result.stderr)")
    }
}
