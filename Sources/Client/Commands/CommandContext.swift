import CommandLineParsing
import Foundation
import JSON
import TerminalUI
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// What every command gets: its parsed line, the environment, the state folder, the console.
final class CommandContext {
    let parsed: ParsedCommand
    let environment: [String: String]
    let state: ClientState
    let console: Console
    /// `settings()` once worked out, failure included.
    private var resolvedSettings: Result<ConnectionSettings, ClientError>?

    init(parsed: ParsedCommand, environment: [String: String], console: Console) {
        self.parsed = parsed
        self.environment = environment
        self.state = ClientState(environment: environment)
        self.console = console
    }

    var json: Bool { parsed.flag("--json") }

    /// The server and how to trust it, worked out once: config.json is read on the first call.
    func settings() throws(ClientError) -> ConnectionSettings {
        if let resolvedSettings { return try resolvedSettings.get() }
        let resolved = Result { () throws(ClientError) in
            try ConnectionSettings.resolve(
                serverFlag: parsed.string("--server"), caFlag: parsed.string("--ca"),
                caVariable: parsed.environmentVariable(of: "--ca"), state: state
            ) { [console] in console.err($0) }
        }
        resolvedSettings = resolved
        return try resolved.get()
    }

    /// A connected, not yet authenticated session.
    func connect() throws(ClientError) -> SnapshareSession {
        let console = self.console
        return try SnapshareSession(settings: try settings(), state: state) { console.err($0.commandLine) }
    }

    /// A session resumed from the saved login.
    func authenticated() throws(ClientError) -> SnapshareSession {
        let session = try connect()
        _ = try session.resumeSavedSession()
        try chooseClass(on: session)
        return session
    }

    /// Acts in the class `--class` (or `$SNAPSHARE_CLASS`) names, else in the one saved for this
    /// server (`SnapshareSession.chooseClass`).
    private func chooseClass(on session: SnapshareSession) throws(ClientError) {
        if let notice = try session.chooseClass(asked: parsed.string("--class")) { console.err("snapshare: note: " + notice) }
    }

    /// Saves `handle` as the class every later command acts in on this session's server.
    func rememberClass(_ handle: String, on session: SnapshareSession) throws(ClientError) {
        do {
            try state.saveCurrentClass(handle, for: session.sessionKey ?? session.settings.serverKey)
        } catch {
            throw ClientError(.local, "could not save the class you chose: \(error.description)")
        }
    }

    func usage(_ message: String) -> ClientError { ClientError(.usage, parsed.usageError(message).description) }

    /// A positional argument that must be a positive whole number.
    func identifier(_ index: Int, _ name: String) throws(ClientError) -> UInt64 {
        guard let text = parsed.positional(index), let value = UInt64(text), value > 0 else {
            throw usage("\(name) must be a positive whole number, got '\(parsed.positional(index) ?? "")'")
        }
        return value
    }

    /// The user name in positional `index`, checked by the server's rule before anything is sent
    /// (a usage error in the rule's words); `argument` names it in the message when the command
    /// takes two names.
    func username(_ index: Int, argument: String? = nil) throws(ClientError) -> String {
        let name = parsed.positional(index) ?? ""
        if let problem = InputRules.validateUsername(name) { throw usage(argument.map { "\($0): \(problem)" } ?? problem) }
        return name
    }

    /// A feed name checked (and trimmed) by the server's rule before anything is sent.
    func feedName(_ raw: String) throws(ClientError) -> String {
        switch InputRules.normalizedFeedName(raw) {
        case .success(let name): return name
        case .failure(let error): throw usage(error.message)
        }
    }

    /// The reason in option `name` (`--reason`), checked and trimmed by the server's rule before
    /// anything is sent; `missing` is the usage error when it is required and absent, nil when it
    /// may be left out (then "" when absent or blank).
    func reason(_ name: String = "--reason", missing: String?) throws(ClientError) -> String {
        switch InputRules.normalizedOptionalReason(parsed.string(name) ?? "") {
        case .success(let reason):
            if let missing, reason.isEmpty { throw usage(missing) }
            return reason
        case .failure(let error): throw usage("\(name): \(error.message)")
        }
    }

    /// The duration option `name`, nil when absent: a usage error showing the forms accepted when
    /// it does not parse, or (`positive`) is not longer than nothing.
    func duration(_ name: String, positive: Bool) throws(ClientError) -> TimeSpan? {
        do {
            return positive ? try parsed.positiveTimeSpan(name) : try parsed.timeSpan(name)
        } catch {
            throw ClientError(.usage, error.description)
        }
    }

    /// Asks before something that cannot be undone: `--yes` skips the question; on a terminal the
    /// answer must be y or yes; without a terminal to ask on, the command is refused.
    func confirm(_ question: String) throws(ClientError) {
        if parsed.flag("--yes") { return }
        guard Terminal.isTerminal(0) else {
            throw ClientError(.usage, "\(question) There is no terminal to ask on; add --yes to go ahead")
        }
        console.rawError("\(question) [y/N] ")
        let answer = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw ClientError(.usage, "nothing was changed") }
    }

    /// Prints a JSON document.
    func printJSON(_ value: JSONValue) { console.out(value.toJSON(pretty: false)) }
}
