#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TLS
import Posix

/// The certificate the server presents: the operator's files (`--tls-cert`, `--tls-key`), or a
/// dev certificate made for the names the server is reached by. Loaded at start and again at
/// each reload, which keeps the previous one when this throws.
struct ServedCertificate {
    let context: TLSContext
    /// The chain file served, and its fingerprints for the start-up and reload lines.
    let chainFile: String
    let chain: CertificateChainFile?
    /// The dev certificate set, when the server made its own.
    let devSet: DevCertificateSet?

    static func load(_ configuration: ServerConfiguration) throws -> ServedCertificate {
        let chainFile: String
        let keyFile: String
        var devSet: DevCertificateSet?
        if let cert = configuration.tlsCertificateFile, let key = configuration.tlsKeyFile {
            (chainFile, keyFile) = (cert, key)
        } else {
            let set = try DevCertificateAuthority.ensure(directory: configuration.certificatesDirectory,
                                                         hosts: certificateHosts(configuration))
            devSet = set
            (chainFile, keyFile) = (set.serverChainPath, set.serverKeyPath)
        }
        let context = try TLSContext.server(certificateChainFile: chainFile, privateKeyFile: keyFile)
        return ServedCertificate(context: context, chainFile: chainFile, chain: try? CertificateChainFile(path: chainFile), devSet: devSet)
    }

    /// The names a generated certificate covers: this machine's usual names, the address it
    /// listens on (every interface's when it listens on all of them), and `--cert-host`.
    static func certificateHosts(_ configuration: ServerConfiguration) -> [String] {
        var hosts = ["localhost", "127.0.0.1", "::1"]
        var name = [CChar](repeating: 0, count: 256)
        if gethostname(&name, name.count) == 0 {
            hosts.append(name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        let listen = configuration.host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        hosts += ["0.0.0.0", "::", ""].contains(listen) ? Socket.interfaceAddresses() : [listen]
        hosts += configuration.certificateHosts
        var unique: [String] = []
        for host in hosts where !host.isEmpty && !unique.contains(host) { unique.append(host) }
        return unique
    }
}
