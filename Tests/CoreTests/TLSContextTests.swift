import Foundation
import Testing

@testable import TLS

@Suite("TLS contexts")
struct TLSContextTests {
    @Test("a missing certificate file is a configuration error that names the file")
    func missingCertificateFileIsReported() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let missing = "\(directory)/nope.pem"
            let error = #expect(throws: TLSError.self) {
                try TLSContext.server(certificateChainFile: missing, privateKeyFile: certificates.serverKeyPath)
            }
            #expect(error?.kind == .configuration)
            #expect(error?.message.contains(missing) == true)
            #expect(error?.message.contains("No such file") == true)
        }
    }

    @Test("a key that does not match the certificate is a configuration error")
    func mismatchedKeyIsReported() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let one = try TLSTestHarness.certificates(in: directory, named: "one")
            let two = try TLSTestHarness.certificates(in: directory, named: "two")
            let error = #expect(throws: TLSError.self) {
                try TLSContext.server(
                    certificateChainFile: one.serverCertificatePath, privateKeyFile: two.serverKeyPath)
            }
            #expect(error?.kind == .configuration)
            #expect(error?.message.contains("does not match") == true)
        }
    }

    @Test("a file that holds no PEM data is a configuration error", arguments: ["server", "client"])
    func junkFileIsReported(role: String) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let junk = "\(directory)/junk.pem"
            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: junk))
            let error = #expect(throws: TLSError.self) {
                if role == "server" {
                    _ = try TLSContext.server(certificateChainFile: junk, privateKeyFile: certificates.serverKeyPath)
                } else {
                    _ = try TLSContext.client(trustRootsFile: junk)
                }
            }
            #expect(error?.kind == .configuration)
            #expect(error?.openSSLErrors.isEmpty == false)
        }
    }

    @Test("a missing trust file is a configuration error")
    func missingTrustFileIsReported() {
        let error = #expect(throws: TLSError.self) { try TLSContext.client(trustRootsFile: "/nonexistent/ca.pem") }
        #expect(error?.kind == .configuration)
        #expect(error?.message.contains("/nonexistent/ca.pem") == true)
    }

    @Test("an empty server name is refused")
    func emptyServerNameIsRefused() throws {
        let context = try TLSContext.client(trustRootsFile: nil)
        let error = #expect(throws: TLSError.self) { try TLSEngine(context: context, role: .client(serverName: "")) }
        #expect(error?.kind == .configuration)
    }

    @Test("one context serves many engines and outlives none of them")
    func contextIsShared() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let serverContext = try TLSContext.server(
                certificateChainFile: certificates.serverCertificatePath, privateKeyFile: certificates.serverKeyPath)
            let clientContext = try TLSContext.client(trustRootsFile: certificates.caCertificatePath)
            for _ in 0..<3 {
                let server = try TLSEngine(context: serverContext, role: .server)
                let client = try TLSEngine(context: clientContext, role: .client(serverName: "localhost"))
                try TLSTestHarness.connect(client: client, server: server)
            }
        }
    }
}
