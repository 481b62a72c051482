import JSON
import TLS

/// trust: pin a server's new certificate after checking it with the instructor.
enum TrustCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        let server = context.parsed.positional(0) ?? ""
        let fingerprint = context.parsed.positional(1) ?? ""
        let settings = try ConnectionSettings.resolve(serverFlag: server, caFlag: nil, state: context.state)
        let outcome = try PinRenewal.trust(fingerprint, settings: settings, state: context.state)
        if context.json {
            let (pinned, removed): (String?, Bool) =
                switch outcome {
                case .pinned(let hex): (hex, false)
                case .trustedBySystem(let removed): (nil, removed)
                }
            context.printJSON(
                .object([
                    ("server", .string(settings.serverKey)), ("pinned", pinned.map(JSONValue.string) ?? .null),
                    ("trusted_by_system", .bool(pinned == nil)), ("removed_pin", .bool(removed)),
                ]))
            return
        }
        switch outcome {
        case .pinned(let hex):
            context.console.out("Trusting \(settings.serverKey) with SHA-256 \(DevCertificateAuthority.formatFingerprint(hex: hex)).")
        case .trustedBySystem(let removed):
            context.console.out(
                "This system's trusted roots vouch for \(settings.serverKey): nothing needs pinning"
                    + (removed ? " (its old pin is forgotten)." : "."))
        }
    }
}
