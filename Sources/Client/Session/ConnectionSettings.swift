import Shared

/// Which server to talk to and how to trust it, resolved from flags, environment and state.
public struct ConnectionSettings: Sendable, Equatable {
    public static let defaultServer = "localhost:7443"

    public var host: String
    public var port: Int
    /// A CA file to verify the server with; nil means trust on first use of its fingerprint.
    public var caFile: String?
    public var timeoutSeconds: Double = 15

    /// `host:port` as stored in state files.
    public var serverKey: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public init(host: String, port: Int, caFile: String?) {
        self.host = host; self.port = port; self.caFile = caFile
    }

    /// Precedence: the flag or its environment variable (the command line parser fills one from
    /// the other), then the saved default.
    public static func resolve(serverFlag: String?, caFlag: String?, state: ClientState) throws(ClientError) -> ConnectionSettings {
        let config: ClientConfig
        do { config = try state.config() } catch { throw ClientError(.local, error.description) }
        let server = serverFlag ?? config.server ?? defaultServer
        let ca = caFlag ?? config.caFile
        let endpoint: HostPort
        do { endpoint = try HostPort(parsing: server, defaultPort: 7443) } catch {
            throw ClientError(.usage, "bad server address \"\(server)\": \(error)")
        }
        return ConnectionSettings(host: endpoint.host, port: Int(endpoint.port), caFile: ca)
    }
}
