#if canImport(Glibc)
import Glibc
#endif
import Shared

/// register, login, logout, whoami.
enum AccountCommands {
    static func register(_ context: CommandContext) throws(ClientError) {
        let username = context.parsed.positional(0) ?? ""
        let password = try PasswordInput.read(context, confirm: true)
        let session = try context.connect()
        let identity = try session.register(username: username, password: password,
                                            classCode: context.parsed.string("--class-code") ?? "")
        report(identity, verb: "Registered and logged in", session, context)
    }

    static func login(_ context: CommandContext) throws(ClientError) {
        let username = context.parsed.positional(0) ?? ""
        let password = try PasswordInput.read(context, confirm: false)
        let session = try context.connect()
        let identity = try session.login(username: username, password: password)
        report(identity, verb: "Logged in", session, context)
    }

    static func logout(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        try session.logout()
        context.console.out("Logged out of \(session.settings.serverKey).")
    }

    static func whoAmI(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let identity = try session.whoAmI()
        if context.json {
            context.printJSON(identityJSON(identity, server: session.settings.serverKey))
        } else {
            context.console.out("\(identity.username)\(identity.isAdmin ? " (admin)" : "") on \(session.settings.serverKey)")
        }
    }

    private static func report(_ identity: Authenticated, verb: String, _ session: SnapshareSession, _ context: CommandContext) {
        if context.json {
            context.printJSON(identityJSON(identity, server: session.settings.serverKey))
        } else {
            context.console.out("\(verb) as \(identity.username)\(identity.isAdmin ? " (admin)" : "") on \(session.settings.serverKey).")
        }
    }

    static func identityJSON(_ identity: Authenticated, server: String) -> JSONValue {
        .object([("username", .string(identity.username)), ("admin", .bool(identity.isAdmin)),
                 ("server", .string(server)), ("created_at", .string(Timestamp.iso8601(identity.createdAt)))])
    }
}

/// Reads a password without echo on a terminal, or from standard input with --password-stdin.
enum PasswordInput {
    static func read(_ context: CommandContext, confirm: Bool) throws(ClientError) -> String {
        if context.parsed.flag("--password-stdin") {
            guard let line = readLine(strippingNewline: true) else {
                throw ClientError(.usage, "--password-stdin given but standard input is empty")
            }
            return line
        }
        guard isatty(0) == 1 else {
            throw ClientError(.usage, "no terminal to ask for the password on; pass it with --password-stdin")
        }
        let first = try prompt("Password: ")
        if confirm {
            let second = try prompt("Repeat password: ")
            guard first == second else { throw ClientError(.usage, "the passwords do not match") }
        }
        return first
    }

    private static func prompt(_ text: String) throws(ClientError) -> String {
        Console().rawError(text)
        var saved = termios()
        tcgetattr(0, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        defer {
            tcsetattr(0, TCSAFLUSH, &saved)
            Console().rawError("\n")
        }
        guard let line = readLine(strippingNewline: true) else { throw ClientError(.usage, "no password given") }
        return line
    }
}
