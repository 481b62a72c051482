import Client
import Foundation
import TestSupport
import Testing

@testable import Posix
@testable import TLS
@testable import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// TLS is mandatory and verified: wrong CA, wrong name, plain TCP and TLS 1.2 are all refused.
@Suite struct TransportSecurityTests {
    @Test func aClientTrustingAnotherCAIsRefused() throws {
        let server = try TestServer()
        let other = TemporaryDirectory("snapshare-other-ca")
        let otherSet = try DevCertificateAuthority.ensure(directory: other.path, hosts: ["localhost", "127.0.0.1"])
        let context = try TLSContext.client(trustRootsFile: otherSet.caCertificatePath)
        let error = clientError { _ = try ServerConnection(host: "127.0.0.1", port: server.port, context: context, timeout: 5) }
        #expect(error?.kind == .tls)
        try MalformedFrameTests.expectServerStillServes(server)
    }

    @Test func aCertificateForAnotherHostNameIsRefused() throws {
        let certs = TemporaryDirectory("snapshare-wrong-host")
        let set = try DevCertificateAuthority.ensure(directory: certs.path, hosts: ["files.example.org"])
        let server = try TestServer {
            $0.tlsCertificateFile = set.serverCertificatePath
            $0.tlsKeyFile = set.serverKeyPath
        }
        let context = try TLSContext.client(trustRootsFile: set.caCertificatePath)
        let error = clientError { _ = try ServerConnection(host: "127.0.0.1", port: server.port, context: context, timeout: 5) }
        #expect(error?.kind == .tls)
        #expect(error?.message.contains("mismatch") == true, "\(error?.message ?? "")")
        // Trust on first use still checks the name.
        let pinned = try TLSContext.client(trustRootsFile: nil)
        #expect(clientError { _ = try ServerConnection(host: "127.0.0.1", port: server.port, context: pinned, timeout: 5) }?.kind == .tls)
    }

    @Test func theHostNameLocalhostIsAccepted() throws {
        let server = try TestServer()
        let connection = try ServerConnection(
            host: "localhost", port: server.port, context: TLSContext.client(trustRootsFile: server.caPath))
        #expect(try connection.hello().version == ProtocolConstants.current)
    }

    @Test func aTLS12ClientIsRefused() throws {
        let server = try TestServer()
        let context = try TLSContext.client(trustRootsFile: server.caPath, version: .tls12)
        #expect(clientError { _ = try ServerConnection(host: "127.0.0.1", port: server.port, context: context, timeout: 5) }?.kind == .tls)
        // And with a client we did not write.
        let result = try Subprocess.runTool(
            "/usr/bin/openssl",
            [
                "s_client", "-tls1_2", "-connect", "127.0.0.1:\(server.port)",
                "-CAfile", server.caPath,
            ], stdin: "", timeout: 20)
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("alert protocol version"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Cipher is (NONE)"))
        try MalformedFrameTests.expectServerStillServes(server)
    }

    @Test func opensslNegotiatesTLS13WithAVerifiedP256Certificate() throws {
        let server = try TestServer()
        let result = try Subprocess.runTool(
            "/usr/bin/openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", server.caPath,
                "-verify_hostname", "localhost", "-verify_return_error", "-brief",
            ],
            stdin: "", timeout: 20)
        let text = result.stdout + result.stderr
        #expect(text.contains("TLSv1.3"), "\(text)")
        #expect(text.contains("Verification: OK"), "\(text)")
        #expect(text.contains("ECDSA") || text.contains("prime256v1") || text.contains("P-256"), "\(text)")
    }

    @Test func plainTCPIsRefusedAndTheServerStaysUp() throws {
        let server = try TestServer()
        let fd = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
        Socket.setTimeouts(fd, seconds: 5)
        let hello = Frame(Hello(clientName: "plain"), requestID: 1).encoded()
        _ = hello.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        close(fd)
        // Whatever came back (a TLS alert at most) is not a Snapshare frame.
        #expect(!received.starts(with: [0, 0]))
        try MalformedFrameTests.expectServerStillServes(server)
    }

    @Test("a client asking for 512-byte TLS records (max_fragment_length) gets every gathered reply whole")
    func smallRecordsKeepGatheredRepliesWhole() throws {
        let server = try TestServer()
        let folder = TemporaryDirectory("snapshare-maxfrag")
        // Hello and fifty Pings in one go: their replies are gathered into records of 512 bytes.
        var request = Frame(Hello(clientName: "maxfrag"), requestID: 1).encoded()
        for id in 2...51 { request += Frame(Ping(), requestID: UInt32(id)).encoded() }
        let errors = folder.path + "/stderr"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        client.arguments = [
            "s_client", "-quiet", "-no_ign_eof", "-tls1_3", "-maxfraglen", "512",
            "-connect", "127.0.0.1:\(server.port)", "-CAfile", server.caPath,
        ]
        let input = Pipe()
        let output = Pipe()
        client.standardInput = input
        client.standardOutput = output
        client.standardError = FileHandle(forWritingAtPath: errors)
        let exited = DispatchSemaphore(value: 0)
        client.terminationHandler = { _ in exited.signal() }
        try client.run()
        input.fileHandleForWriting.write(Data(request))
        // The replies as they arrive, until all are in; then, its input ended, s_client sends
        // close_notify and leaves (-no_ign_eof), and whatever else came is read to the end. The
        // deadline only turns a hang into a failure.
        var decoder = FrameDecoder(maxPayload: 1 << 20)
        var frames: [Frame] = []
        var received = 0
        let fd = output.fileHandleForReading.fileDescriptor
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Date().addingTimeInterval(30)
        var inputOpen = true
        while Date() < deadline {
            if inputOpen && frames.count >= 51 {
                try input.fileHandleForWriting.close()
                inputOpen = false
            }
            guard try Syscall.waitUntilReadable(fd, timeoutMilliseconds: 1000) else { continue }
            guard case .processed(let count) = try Syscall.read(fd, into: &chunk), count > 0 else { break }
            received += count
            decoder.append(Array(chunk[..<count]))
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        if exited.wait(timeout: .now() + 10) == .timedOut { Signals.send(SIGKILL, to: client.processIdentifier) }
        client.waitUntilExit()
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(frames.count == 51, "\(received) bytes: \(stderr)")
        #expect(frames.first?.type == MessageType.welcome.rawValue)
        #expect(Set(frames.dropFirst().filter { $0.type == MessageType.pong.rawValue }.map(\.requestID)) == Set(2...51))
        try MalformedFrameTests.expectServerStillServes(server)
    }

    @Test func aSilentConnectionIsClosedAfterTheHandshakeDeadline() throws {
        let server = try TestServer { $0.handshakeTimeoutMilliseconds = 500 }
        let fd = try Socket.connect(host: "127.0.0.1", port: server.port, timeout: 5)
        Socket.setTimeouts(fd, seconds: 5)
        let started = Date()
        var byte: UInt8 = 0
        let n = read(fd, &byte, 1)
        close(fd)
        #expect(n <= 0)
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func aboveTheConnectionLimitTheServerStopsAcceptingUntilOneLeaves() throws {
        let server = try TestServer { $0.maxConnections = 2 }
        let first = try server.registeredSession("one")
        let second = try server.registeredSession("two")
        _ = second
        let context = try TLSContext.client(trustRootsFile: server.caPath)
        #expect(
            clientError { _ = try ServerConnection(host: "127.0.0.1", port: server.port, context: context, timeout: 1) }?.kind
                == .connection)
        #expect(try first.whoAmI().username == "one", "connections already served keep working")
        first.connection.close()
        var connected = false
        for _ in 0..<20 where !connected {
            if let third = try? ServerConnection(host: "127.0.0.1", port: server.port, context: context, timeout: 2) {
                connected = (try? third.hello()) != nil
            }
        }
        #expect(connected)
    }
}
