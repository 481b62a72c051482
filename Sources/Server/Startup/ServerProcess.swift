import CommandLineParsing
import Foundation
import Posix

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The server's life as a process: start, print what students need, then wait for signals.
/// SIGHUP reloads (the config file, the certificate and key, what may change while running);
/// SIGTERM and SIGINT drain and exit 0, a second one ends the drain at once. A service manager
/// listening on `$NOTIFY_SOCKET` (systemd's `Type=notify`) hears READY, RELOADING and STOPPING.
struct ServerProcess {
    /// The command line as given, parsed again (with the config file read again) at each reload.
    let arguments: [String]
    let environment: [String: String]

    func serve(_ parsed: ParsedCommand) throws -> Int32 {
        if parsed.isFromCommandLine("--class-code") {
            ServerCommandLine.warn(
                "warning: --class-code on the command line is visible to every user of this machine (ps); "
                    + "put class-code in the config file (mode 0600) or SNAPSHARE_CLASS_CODE")
        }
        var configuration = try ServerCommandLine.configuration(parsed)
        // Blocked before any thread starts, so every thread inherits the mask and the signals
        // reach only this one, through the pipe (which lets them through here alone).
        Signals.block([SIGHUP, SIGINT, SIGTERM])
        let signals = try SignalPipe(forwarding: [SIGHUP, SIGINT, SIGTERM])
        defer { signals.close() }
        let notifier = ServiceNotifier(environment: environment)
        let logger = Logger(level: configuration.logLevel, format: configuration.logFormat)
        let server = try SnapshareServer(configuration: configuration, logger: logger)
        let port = try server.start()
        // Straight to the descriptor, not through print's buffer: whoever waits for these lines
        // (a service manager's log, a script, a test) sees them now.
        let lines = startLines(server, port: port).joined(separator: "\n") + "\n"
        try? Syscall.writeAll(STDOUT_FILENO, Array(lines.utf8), origin: .inherited)
        notifier.ready(status: "serving on \(configuration.host):\(port)")
        var current = parsed
        while true {
            let delivery = try signals.wait(timeoutMilliseconds: -1)
            if delivery.signals.contains(where: { $0 == SIGINT || $0 == SIGTERM }) { break }
            guard delivery.signals.contains(SIGHUP) else { continue }
            notifier.reloading()
            if let (next, nextConfiguration) = reread(logger: logger) {
                server.reload(nextConfiguration, changedOptions: next.optionsDiffering(from: current))
                configuration.drainTimeoutMilliseconds = nextConfiguration.drainTimeoutMilliseconds
                current = next
            }
            notifier.ready(status: "serving on \(configuration.host):\(port) (reloaded)")
        }
        notifier.stopping(status: "draining connections")
        logger.info(
            "shutting down: finishing requests in flight (at most \(configuration.drainTimeoutMilliseconds / 1000) s; "
                + "a second SIGTERM stops at once)"
        )
        let left = server.drain(timeoutMilliseconds: configuration.drainTimeoutMilliseconds) {
            (try? signals.wait(timeoutMilliseconds: 0))?.signals.contains { $0 == SIGINT || $0 == SIGTERM } == true
        }
        if left > 0 { logger.warning("shutting down with \(left) connections still busy") }
        server.stop()
        logger.info("stopped")
        return 0
    }

    /// The command line and config file read again; nil (after logging why) when they no longer
    /// make a configuration, and then nothing changes.
    private func reread(logger: Logger) -> (ParsedCommand, ServerConfiguration)? {
        do {
            let parsed = try ServerCommandLine.parse(arguments, environment: environment)
            return (parsed, try ServerCommandLine.configuration(parsed))
        } catch let error as UsageError {
            logger.error("reload: \(error.message); nothing changed")
        } catch {
            logger.error("reload: \(error); nothing changed")
        }
        return nil
    }

    /// What the operator and the students need to know, printed once the server listens.
    private func startLines(_ server: SnapshareServer, port: Int) -> [String] {
        let config = server.configuration
        var lines = [
            "snapshare-server listening on \(config.host):\(port) (TLS 1.3)",
            "  data: \(config.databaseDescription)",
        ]
        if let set = server.certificates {
            lines.append("  CA certificate for students: \(set.caCertificatePath)")
        } else {
            lines.append("  certificate: \(config.tlsCertificateFile ?? "")")
        }
        lines += (server.servedChain?.pinLines ?? []).map { "  " + $0 }
        if config.classCode != nil { lines.append("  registration requires the class code") }
        lines.append("  photos: \(config.photoSource)")
        if let folder = config.backupDirectory {
            lines.append(
                "  backups: every \(TimeSpan(milliseconds: config.backupIntervalMilliseconds)) into \(folder), keeping \(config.backupKeep)"
            )
        }
        if let metricsPort = server.metricsPort, let address = config.metricsAddress {
            lines.append("  metrics: http://\(HostPort(host: address.host, port: UInt16(metricsPort)))/metrics")
        }
        return lines
    }

}
