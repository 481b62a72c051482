import JSON
import TerminalUI
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// register, login, logout, whoami.
enum AccountCommands {
    static func register(_ context: CommandContext) throws(ClientError) {
        let username = try context.username(0)
        let password = try PasswordInput.read(context, confirm: true)
        let session = try context.connect()
        let identity = try session.register(
            username: username, password: password,
            classCode: context.parsed.string("--class-code") ?? "")
        report(identity, verb: "Registered and logged in", session, context)
    }

    static func login(_ context: CommandContext) throws(ClientError) {
        let username = try context.username(0)
        let password = try PasswordInput.read(context, confirm: false)
        let session = try context.connect()
        let identity = try session.login(username: username, password: password)
        report(identity, verb: "Logged in", session, context)
        try replaceOneTimePassword(password, session, context)
    }

    /// A roster import's account has a one-time password: the server answers nothing else until
    /// its owner chooses their own, so `login` asks for it at once (or takes it from the next line
    /// of standard input with --password-stdin).
    private static func replaceOneTimePassword(_ current: String, _ session: SnapshareSession, _ context: CommandContext)
        throws(ClientError)
    {
        do {
            _ = try session.feeds()
            return
        } catch let error where error.serverCode == .passwordChangeRequired {}
        if context.parsed.flag("--password-stdin") {
            guard let line = readLine(strippingNewline: true) else {
                context.console.err(
                    "Your password is a one-time password from your instructor: choose your own with `snapshare passwd` "
                        + "before anything else (or give it as a second line with --password-stdin).")
                return
            }
            try session.changePassword(from: current, to: line)
        } else {
            context.console.err("Your password is a one-time password from your instructor; choose your own now.")
            // A refused choice (the one-time password itself, one too short) is asked again, a few times.
            for attempt in 1...3 {
                let new = try PasswordInput.read(context, confirm: true, prompt: "New password: ")
                do {
                    try session.changePassword(from: current, to: new)
                    break
                } catch  where error.serverCode == .invalidArgument && attempt < 3 {
                    context.console.err(PrintableText.clean(error.message) + ". Try another.")
                }
            }
        }
        context.console.err("Password changed: from now on, log in with the one you chose.")
    }

    static func logout(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        try session.logout()
        context.console.out("Logged out of \(session.settings.serverKey).")
    }

    static func changePassword(_ context: CommandContext) throws(ClientError) {
        let (old, new) = try PasswordInput.readChange(context)
        let session = try context.authenticated()
        try session.changePassword(from: old, to: new)
        context.console.out("Password changed. Your other sessions were logged out; this one stays.")
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
        .object([
            ("username", .string(identity.username)), ("admin", .bool(identity.isAdmin)),
            ("server", .string(server)), ("created_at", .string(Timestamp.iso8601(identity.createdAt))),
        ])
    }
}

/// Reads a password without echo on a terminal, or from standard input with --password-stdin.
enum PasswordInput {
    static func read(_ context: CommandContext, confirm: Bool, prompt text: String = "Password: ") throws(ClientError) -> String {
        if context.parsed.flag("--password-stdin") { return try line("the password") }
        try requireTerminal()
        let first = try prompt(text)
        if confirm {
            let second = try prompt("Repeat password: ")
            guard first == second else { throw ClientError(.usage, "the passwords do not match") }
        }
        return first
    }

    /// The current and the new password, for `passwd`.
    static func readChange(_ context: CommandContext) throws(ClientError) -> (old: String, new: String) {
        if context.parsed.flag("--password-stdin") {
            return (try line("the current password (first line)"), try line("the new password (second line)"))
        }
        try requireTerminal()
        let old = try prompt("Current password: ")
        let new = try read(context, confirm: true, prompt: "New password: ")
        return (old, new)
    }

    private static func line(_ what: String) throws(ClientError) -> String {
        guard let line = readLine(strippingNewline: true) else {
            throw ClientError(.usage, "--password-stdin given but standard input has no \(what)")
        }
        return line
    }

    private static func requireTerminal() throws(ClientError) {
        guard Terminal.isTerminal(0) else {
            throw ClientError(.usage, "no terminal to ask for the password on; pass it with --password-stdin")
        }
    }

    private static func prompt(_ text: String) throws(ClientError) -> String {
        Console().rawError(text)
        defer { Console().rawError("\n") }
        let line: String?
        do { line = try Terminal().withoutEcho { readLine(strippingNewline: true) } } catch {
            throw ClientError(.local, "cannot hide the password as it is typed (\(error)); pass it with --password-stdin")
        }
        guard let line else { throw ClientError(.usage, "no password given") }
        return line
    }
}
