import Foundation
import Posix
import TLS

#if canImport(Glibc)
    import Glibc
#endif

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
            let set = try DevCertificateAuthority.ensure(
                directory: configuration.certificatesDirectory,
                hosts: certificateHosts(configuration))
            devSet = set
            (chainFile, keyFile) = (set.serverChainPath, set.serverKeyPath)
        }
        let context = try TLSContext.server(certificateChainFile: chainFile, privateKeyFile: keyFile)
        return ServedCertificate(context: context, chainFile: chainFile, chain: try? CertificateChainFile(path: chainFile), devSet: devSet)
    }

    /// What the log says when this load issued a new server certificate from the class CA (at a
    /// start or a reload), with the date it is valid until; nil when it reused the one there.
    func issueNote(now: Date = Date()) -> (line: String, isWarning: Bool)? {
        guard let set = devSet, let issue = set.issued else { return nil }
        let until = set.leafNotAfter.map(Self.day) ?? "an unknown date"
        switch issue {
        case .first:
            return (
                "made the server certificate from the class CA, valid until \(until); at a start or reload within 30 days "
                    + "of its end it is reissued from the same CA", false
            )
        case .newAuthority:
            return (
                "made a new class CA and server certificate, valid until \(until): students who trusted the old CA are refused "
                    + "until they trust the new one (give them \(set.caCertificatePath), or the fingerprint below)", true
            )
        case .expiring(let previousEnd):
            return (
                "reissued the server certificate from the class CA: the previous one \(previousEnd < now ? "ended" : "ends") on "
                    + "\(Self.day(previousEnd)), within 30 days; the new one is valid until \(until) "
                    + "(clients that trust the CA accept it as it is)",
                false
            )
        case .newNames(let names):
            return (
                "reissued the server certificate from the class CA to name \(names.joined(separator: ", ")); valid until \(until)", false
            )
        case .missingOrUnusable:
            return (
                "reissued the server certificate from the class CA (the previous one was missing, unreadable or did not match "
                    + "its key); valid until \(until)", false
            )
        }
    }

    /// A date as the log gives certificate ends: `2029-03-07` (UTC).
    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }

    /// Logs `issueNote`, when there is one.
    func logIssue(_ logger: Logger) {
        guard let note = issueNote() else { return }
        if note.isWarning { logger.warning(note.line) } else { logger.info(note.line) }
    }

    /// The names a generated certificate covers: this machine's usual names, the address it
    /// listens on (every interface's when it listens on all of them), and `--cert-host`.
    static func certificateHosts(_ configuration: ServerConfiguration) -> [String] {
        var hosts = ["localhost", "127.0.0.1", "::1"]
        if let name = Socket.hostName() { hosts.append(name) }
        let listen = configuration.host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        hosts += ["0.0.0.0", "::", ""].contains(listen) ? Socket.interfaceAddresses() : [listen]
        hosts += configuration.certificateHosts
        var unique: [String] = []
        for host in hosts where !host.isEmpty && !unique.contains(host) { unique.append(host) }
        return unique
    }
}
