import ClassExport
import CommandLineParsing
import JSON
import Wire

/// admin create-feed | delete-feed | reset-feed | reset-feeds --all | delete-snap | restore-view | users | stats
/// | unlock | promote | demote | reset-password.
enum AdminCommands {
    static func createFeed(_ context: CommandContext) throws(ClientError) {
        let name = try context.feedName(context.parsed.positional(0) ?? "")
        let session = try context.authenticated()
        try session.createFeed(name)
        context.console.out("Created feed \(name).")
    }

    static func deleteFeed(_ context: CommandContext) throws(ClientError) {
        let name = try context.feedName(context.parsed.positional(0) ?? "")
        let session = try context.authenticated()
        try context.confirm("Delete the feed \(PrintableText.clean(name)) with all its snaps?")
        try session.deleteFeed(name)
        context.console.out("Deleted feed \(name) and its snaps.")
    }

    static func resetFeed(_ context: CommandContext) throws(ClientError) {
        let name = try context.feedName(context.parsed.positional(0) ?? "")
        let session = try context.authenticated()
        try context.confirm("Delete every snap of \(PrintableText.clean(name))?")
        let count = try session.resetFeed(name)
        if context.json {
            context.printJSON(.object([("feed", .string(name)), ("deleted", .int(Int64(count)))]))
        } else {
            context.console.out("Reset \(name): \(count) snap\(count == 1 ? "" : "s") deleted.")
        }
    }

    static func resetFeeds(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        guard context.parsed.flag("--all") else { throw context.usage("reset-feeds deletes every snap of every feed; say so with --all") }
        try context.confirm("Delete every snap of every feed?")
        let count = try session.resetAllFeeds()
        if context.json {
            context.printJSON(.object([("deleted", .int(Int64(count)))]))
        } else {
            context.console.out("Reset every feed: \(count) snap\(count == 1 ? "" : "s") deleted.")
        }
    }

    static func deleteSnap(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let id = try context.identifier(0, "ID")
        try session.deleteSnap(id)
        context.console.out("Deleted snap \(id).")
    }

    static func restoreView(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let user = try context.username(1)
        let session = try context.authenticated()
        try session.restoreView(snapID: id, username: user)
        context.console.out("\(user) may open snap \(id) once more.")
    }

    static func users(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let users = try session.users()
        func optional(_ text: String) -> JSONValue { text.isEmpty ? .null : .string(text) }
        func time(_ milliseconds: Int64) -> JSONValue { milliseconds > 0 ? .string(Timestamp.iso8601(milliseconds)) : .null }
        if context.json {
            context.printJSON(
                .array(
                    users.map {
                        .object([
                            ("username", .string($0.username)), ("display_name", optional($0.displayName)),
                            ("roster_name", optional($0.rosterName)),
                            ("admin", .bool($0.isAdmin)), ("disabled", .bool($0.isDisabled)), ("suspended_until", time($0.suspendedUntil)),
                            ("one_time_password", .bool($0.hasOneTimePassword)),
                            ("created_at", .string(Timestamp.iso8601($0.createdAt))), ("last_sign_in", time($0.lastSignIn)),
                            ("posts", .int(Int64($0.postCount))), ("views", .int(Int64($0.viewCount))),
                        ])
                    }))
            return
        }
        var table = TextTable(columns: [
            .init("USER"), .init("DISPLAY NAME"), .init("ROLE"), .init("STATE"), .init("POSTS", alignment: .right),
            .init("VIEWS", alignment: .right), .init("JOINED"),
        ])
        let now = Timestamp.now()
        for user in users {
            table.append([
                user.username, user.displayName, user.isAdmin ? "admin" : "student", state(of: user, now: now),
                "\(user.postCount)", "\(user.viewCount)", TimeAgo.describe(user.createdAt, now: now),
            ])
        }
        context.console.raw(table.render() + "\n")
        if session.protocolVersion < 4 {
            context.console.out(
                "(This server's protocol version \(session.protocolVersion) does not say who is disabled, suspended "
                    + "or on a one-time password.)"
            )
        }
    }

    /// What stands out about an account: disabled, suspended (until when), still on a one-time password; `ok` otherwise.
    static func state(of user: UserInfo, now: Int64) -> String {
        var states: [String] = []
        if user.isDisabled { states.append("disabled") }
        if user.suspendedUntil > now { states.append("suspended until \(ClassExport.readable(user.suspendedUntil)) UTC") }
        if user.hasOneTimePassword { states.append("one-time password") }
        return states.isEmpty ? "ok" : states.joined(separator: ", ")
    }

    static func roster(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let members = try session.roster()
        if context.json {
            context.console.raw(RosterReport.json(members) + "\n")
            return
        }
        if !members.isEmpty {
            var table = TextTable(columns: RosterReport.header.map { TextTable.Column($0) })
            for row in RosterReport.rows(members) { table.append(row) }
            context.console.raw(table.render() + "\n")
        }
        context.console.out(RosterReport.summary(members))
    }

    static func removeFromRoster(_ context: CommandContext) throws(ClientError) {
        let name = context.parsed.positional(0) ?? ""
        let session = try context.authenticated()
        try session.removeFromRoster(name)
        context.console.out("Took \(name) off the roster: the name no longer registers (an account that claimed it keeps its account).")
    }

    static func stats(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let entries = try session.stats()
        if context.json {
            context.printJSON(.object(entries.map { ($0.name, .int($0.value)) }))
            return
        }
        var table = TextTable(columns: [.init("COUNTER"), .init("VALUE", alignment: .right)])
        for entry in entries { table.append([entry.name, "\(entry.value)"]) }
        context.console.raw(table.render() + "\n")
    }

    static func audit(_ context: CommandContext) throws(ClientError) {
        let since = try context.duration("--since", positive: false).map { Timestamp.now() - $0.milliseconds } ?? 0
        let session = try context.authenticated()
        let entries = try session.auditLog(since: since)
        if context.json {
            context.printJSON(
                .array(
                    entries.map {
                        .object([
                            ("at", .int($0.at)), ("actor", .string($0.actor)), ("action", .string($0.action)),
                            ("target", .string($0.target)), ("result", .string($0.result)),
                        ])
                    }))
            return
        }
        guard !entries.isEmpty else {
            context.console.out("No admin actions recorded in that time.\n")
            return
        }
        var table = TextTable(columns: [.init("WHEN"), .init("WHO"), .init("ACTION"), .init("TARGET"), .init("RESULT")])
        let now = Timestamp.now()
        for entry in entries {
            table.append([TimeAgo.describe(entry.at, now: now), entry.actor, entry.action, entry.target, entry.result])
        }
        context.console.raw(table.render() + "\n")
        if entries.count == 5_000 { context.console.out("(the first 5000 shown; ask for less with --since)\n") }
    }

    static func unlock(_ context: CommandContext) throws(ClientError) {
        let address = context.parsed.string("--address")
        guard (context.parsed.positional(0) == nil) != (address == nil) else {
            throw ClientError(
                .usage, "name a user (snapshare admin unlock USER) or an address (snapshare admin unlock --address ADDR), not both")
        }
        var user: String?
        if address == nil { user = try context.username(0) }
        let session = try context.authenticated()
        let what = user ?? address!
        let cleared = if let user { try session.unlock(user) } else { try session.unlock(address: address!) }
        if context.json {
            context.printJSON(.object([(user == nil ? "address" : "username", .string(what)), ("cleared", .int(Int64(cleared)))]))
        } else if cleared == 0 {
            context.console.out("\(what) was not throttled; nothing to lift.")
        } else {
            context.console.out("Lifted the login throttle of \(what) (\(cleared) entr\(cleared == 1 ? "y" : "ies") cleared).")
        }
    }

    static func setAdmin(_ context: CommandContext, _ isAdmin: Bool) throws(ClientError) {
        let user = try context.username(0)
        let session = try context.authenticated()
        try session.setAdmin(user, isAdmin: isAdmin)
        context.console.out(isAdmin ? "\(user) is now an admin." : "\(user) is no longer an admin (on every connection, at once).")
    }

    static func resetPassword(_ context: CommandContext) throws(ClientError) {
        let user = try context.username(0)
        let password = try PasswordInput.read(context, confirm: true, prompt: "New password for \(user): ")
        let session = try context.authenticated()
        try session.resetPassword(of: user, to: password)
        context.console.out("Password of \(user) reset; their sessions were ended, so they log in with the new password.")
    }
}
