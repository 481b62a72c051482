import JSON
import TerminalUI
import Wire

/// `snapshare classes`, `use`, `join` and the staff's `admin members`, `admin set-role` and
/// `admin remove-member`: the classes of an account, on a server that speaks protocol version 5.
enum ClassCommands {
    static func classes(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let classes = try session.classes()
        if context.json {
            context.printJSON(.array(classes.map(json)))
            return
        }
        guard !classes.isEmpty else {
            context.console.out(
                "You are not in a class on this server; join one with the code your instructor gave you: snapshare join CODE")
            return
        }
        var table = TextTable(columns: [.init(""), .init("CLASS"), .init("NAME"), .init("ROLE"), .init("UNREAD", alignment: .right)])
        for info in classes {
            table.append([
                info.isCurrent ? "*" : "", info.handle, info.name + (info.hasEnded ? " (ended)" : ""), info.role.name,
                "\(info.unreadCount)",
            ])
        }
        context.console.raw(table.render() + "\n")
        context.console.out("* marks the class you act in; choose another with snapshare use CLASS.")
    }

    static func json(_ info: ClassInfo) -> JSONValue {
        .object([
            ("handle", .string(info.handle)), ("name", .string(info.name)), ("role", .string(info.role.name)),
            ("current", .bool(info.isCurrent)), ("unread", .int(Int64(info.unreadCount))), ("ended", .bool(info.hasEnded)),
        ])
    }

    /// `use CLASS`: every later command on this server acts in it (saved in the state folder).
    static func use(_ context: CommandContext) throws(ClientError) {
        let handle = context.parsed.positional(0) ?? ""
        let session = try context.authenticated()
        let chosen = try session.useClass(handle)
        try context.rememberClass(chosen.handle, on: session)
        if context.json {
            context.printJSON(json(chosen))
            return
        }
        context.console.out("You act in \(chosen.handle) (\(chosen.name)) as \(role(chosen.role)) from now on.")
    }

    /// `join CODE`: joins the class the code opens, and acts in it from now on.
    static func join(_ context: CommandContext) throws(ClientError) {
        let code = context.parsed.positional(0) ?? ""
        guard !code.isEmpty else { throw context.usage("give the class code your instructor gave you") }
        let session = try context.authenticated()
        let joined = try session.joinClass(code: code)
        try context.rememberClass(joined.handle, on: session)
        if context.json {
            context.printJSON(json(joined))
            return
        }
        context.console.out("You are in \(joined.handle) (\(joined.name)) as \(role(joined.role)), and act in it from now on.")
    }

    static func role(_ role: ClassRoleName) -> String {
        switch role {
        case .none: "a site admin"
        case .instructor, .owner: "an \(role.name)"
        case .student, .ta: "a \(role.name)"
        }
    }

    static func members(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let members = try session.members()
        if context.json {
            context.printJSON(
                .array(
                    members.map {
                        .object([
                            ("username", .string($0.username)), ("role", .string($0.role.name)),
                            ("joined_at", .string(Timestamp.iso8601($0.joinedAt))),
                        ])
                    }))
            return
        }
        var table = TextTable(columns: [.init("USER"), .init("ROLE"), .init("JOINED")])
        for member in members { table.append([member.username, member.role.name, Timestamp.iso8601(member.joinedAt)]) }
        context.console.raw(table.render() + "\n")
    }

    static func setRole(_ context: CommandContext) throws(ClientError) {
        let username = try context.username(0)
        let roleName = context.parsed.positional(1) ?? ""
        guard let role = ClassRoleName(name: roleName) else {
            throw context.usage("the role is one of owner, instructor, ta, student (not '\(roleName)')")
        }
        let session = try context.authenticated()
        try session.setRole(username, role)
        context.console.out("\(username) is \(Self.role(role)) in \(session.chosenClass?.handle ?? "your class") now.")
    }

    static func removeMember(_ context: CommandContext) throws(ClientError) {
        let username = try context.username(0)
        let session = try context.authenticated()
        try session.removeMember(username)
        context.console.out("Took \(username) out of \(session.chosenClass?.handle ?? "your class"); their account stays.")
    }
}
