import Shared

/// admin create-feed | delete-feed | reset-feed | reset-feeds --all | delete-snap | restore-view | users | stats.
enum AdminCommands {
    static func run(_ context: CommandContext, _ action: String) throws(ClientError) {
        let session = try context.authenticated()
        let console = context.console
        switch action {
        case "create-feed":
            let name = context.parsed.positional(0) ?? ""
            try session.createFeed(name)
            console.out("Created feed \(name).")
        case "delete-feed":
            let name = context.parsed.positional(0) ?? ""
            try session.deleteFeed(name)
            console.out("Deleted feed \(name) and its snaps.")
        case "reset-feed":
            let name = context.parsed.positional(0) ?? ""
            let count = try session.resetFeed(name)
            if context.json { context.printJSON(.object([("feed", .string(name)), ("deleted", .int(Int64(count)))])) }
            else { console.out("Reset \(name): \(count) snap\(count == 1 ? "" : "s") deleted.") }
        case "reset-feeds":
            guard context.parsed.flag("--all") else { throw context.usage("reset-feeds deletes every snap of every feed; confirm with --all") }
            let count = try session.resetAllFeeds()
            if context.json { context.printJSON(.object([("deleted", .int(Int64(count)))])) }
            else { console.out("Reset every feed: \(count) snap\(count == 1 ? "" : "s") deleted.") }
        case "delete-snap":
            let id = try context.identifier(0, "ID")
            try session.deleteSnap(id)
            console.out("Deleted snap \(id).")
        case "restore-view":
            let id = try context.identifier(0, "SNAP_ID")
            let user = context.parsed.positional(1) ?? ""
            try session.restoreView(snapID: id, username: user)
            console.out("\(user) may open snap \(id) once more.")
        case "users":
            let users = try session.users()
            if context.json {
                context.printJSON(.array(users.map {
                    .object([("username", .string($0.username)), ("admin", .bool($0.isAdmin)),
                             ("created_at", .string(Timestamp.iso8601($0.createdAt))),
                             ("posts", .int(Int64($0.postCount))), ("views", .int(Int64($0.viewCount)))])
                }))
                return
            }
            var table = TextTable(columns: [.init("USER"), .init("ROLE"), .init("POSTS", alignment: .right),
                                            .init("VIEWS", alignment: .right), .init("JOINED")])
            let now = Timestamp.now()
            for user in users {
                table.append([user.username, user.isAdmin ? "admin" : "student", "\(user.postCount)", "\(user.viewCount)",
                              TimeAgo.describe(user.createdAt, now: now)])
            }
            console.raw(table.render() + "\n")
        case "stats":
            let entries = try session.stats()
            if context.json {
                context.printJSON(.object(entries.map { ($0.name, .int($0.value)) }))
                return
            }
            var table = TextTable(columns: [.init("COUNTER"), .init("VALUE", alignment: .right)])
            for entry in entries { table.append([entry.name, "\(entry.value)"]) }
            console.raw(table.render() + "\n")
        default:
            throw ClientError(.usage, "unknown admin command \(action)")
        }
    }
}
