import CommandLineParsing
import Foundation

/// Which server to talk to and how to trust it, resolved from flags, environment and state.
package struct ConnectionSettings: Sendable, Equatable {
    static let defaultServer = "localhost:7443"

    /// Where the CA file setting came from, so a failure can say which setting to fix.
    package enum CAOrigin: Sendable, Equatable {
        case flag
        case environment(variable: String)
        /// config.json, saved absolute by the last register or login.
        case saved(configPath: String)
    }

    package var host: String
    package var port: Int
    /// A CA file to verify the server with; nil means the system's roots, else trust on first use.
    package var caFile: String?
    /// The server was named by `--server` or `SNAPSHARE_SERVER`, not taken from config.json or
    /// the default.
    var serverNamed = false
    var caOrigin: CAOrigin?
    /// The CA file config.json holds, when another setting won over it.
    var savedCAFile: String?
    var timeoutSeconds: Double = 15

    /// `host:port` as stored in state files.
    package var serverKey: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    package init(host: String, port: Int, caFile: String?, caOrigin: CAOrigin? = .flag, savedCAFile: String? = nil) {
        self.host = host
        self.port = port
        self.caFile = caFile
        self.caOrigin = caFile == nil ? nil : caOrigin
        self.savedCAFile = savedCAFile
    }

    /// Precedence: the flag or its environment variable (the command line parser fills one from
    /// the other), then the saved default. A relative CA path from the environment that does not
    /// exist here (an `export` made in another folder) gives way to the saved CA, with a note.
    static func resolve(
        serverFlag: String?, caFlag: String?, caVariable: String? = nil, state: ClientState,
        note: (String) -> Void = { _ in }
    ) throws(ClientError) -> ConnectionSettings {
        let config: ClientConfig
        do { config = try state.config() } catch { throw ClientError(.local, error.description) }
        let server = serverFlag ?? config.server ?? defaultServer
        let endpoint: HostPort
        do { endpoint = try HostPort(parsing: server, defaultPort: 7443) } catch {
            // The parser's message already quotes the address.
            let source = serverFlag == nil ? " (saved in \(state.configPath))" : ""
            throw ClientError(.usage, "bad server \(error.message)\(source)")
        }
        var ca = caFlag ?? config.caFile
        var origin: CAOrigin? =
            caFlag == nil ? .saved(configPath: state.configPath) : caVariable.map { .environment(variable: $0) } ?? .flag
        if let variable = caVariable, let given = caFlag, !given.hasPrefix("/"), !FileManager.default.fileExists(atPath: given),
            let saved = config.caFile, FileManager.default.isReadableFile(atPath: saved)
        {
            note(
                "note: \(variable)=\(given) is not there from \(FileManager.default.currentDirectoryPath); "
                    + "using the CA saved at login, \(saved) (set \(variable) to an absolute path to silence this)")
            ca = saved
            origin = .saved(configPath: state.configPath)
        }
        var settings = ConnectionSettings(
            host: endpoint.host, port: Int(endpoint.port), caFile: ca, caOrigin: origin,
            savedCAFile: config.caFile == ca ? nil : config.caFile)
        settings.serverNamed = serverFlag != nil
        return settings
    }

    /// Why the CA file cannot be used: which setting named it, relative to what, and what else
    /// is saved.
    func unreadableCA(_ reason: String) -> ClientError {
        guard let caFile else { return ClientError(.tls, reason) }
        var relative = ""
        if !caFile.hasPrefix("/") { relative = ", relative to the current folder \(FileManager.default.currentDirectoryPath)" }
        let source =
            switch caOrigin {
            case .flag?: "--ca"
            case .environment(let variable)?: variable
            case .saved(let path)?: "the CA saved at login in \(path)"
            case nil: "the CA setting"
            }
        var message = "cannot read the CA file \(caFile) (from \(source)\(relative)): \(reason)"
        if let saved = savedCAFile { message += "; your login saved \(saved), which is used when --ca and SNAPSHARE_CA are not set" }
        return ClientError(.tls, message)
    }
}
