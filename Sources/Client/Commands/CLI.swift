#if canImport(Glibc)
import Glibc
#endif
import Shared

/// The `snapshare` program: parse, run one command, map failures to documented exit codes.
public enum CLI {
    /// Runs the client with `arguments` (without the program name); returns the exit code.
    public static func run(arguments: [String], environment: [String: String], console: Console = Console()) -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let parser = CommandLineParser(root: CommandTree.root)
        let parsed: ParsedCommand
        do {
            switch try parser.parse(arguments, environment: environment) {
            case .help(let text):
                console.raw(text.hasSuffix("\n") ? text : text + "\n")
                return ExitCode.success.rawValue
            case .run(let command):
                parsed = command
            }
        } catch {
            console.err("snapshare: \(error.description)")
            return ExitCode.usage.rawValue
        }
        let context = CommandContext(parsed: parsed, environment: environment, console: console)
        do {
            try dispatch(context)
            return ExitCode.success.rawValue
        } catch {
            console.err("snapshare: \(error.message)" + (error.remedy.map { "; " + $0.commandLine } ?? ""))
            return error.exitCode
        }
    }

    private static func dispatch(_ context: CommandContext) throws(ClientError) {
        switch context.parsed.path {
        case ["register"]: try AccountCommands.register(context)
        case ["login"]: try AccountCommands.login(context)
        case ["logout"]: try AccountCommands.logout(context)
        case ["whoami"]: try AccountCommands.whoAmI(context)
        case ["passwd"]: try AccountCommands.changePassword(context)
        case ["feeds"]: try FeedCommands.feeds(context)
        case ["feed"]: try FeedCommands.feed(context)
        case ["post"]: try FeedCommands.post(context)
        case ["view"]: try ViewCommand.run(context)
        case ["snap"]: try SnapCommand.run(context)
        case ["samples"]: try SampleCommands.run(context)
        case ["pin", "add"]: try PinCommands.add(context)
        case ["pin", "rm"]: try PinCommands.remove(context)
        case ["pins"]: try PinCommands.list(context)
        case ["album"]: try AlbumCommands.run(context)
        case ["photo", "show"]: try PhotoCommands.show(context)
        case ["photo", "rm"]: try PhotoCommands.remove(context)
        case ["random"]: try RandomCommand.run(context)
        case ["map"]: try MapCommand.run(context)
        case ["vacation", "list"]: try VacationCommands.list(context)
        case ["vacation", "new"]: try VacationCommands.create(context)
        case ["vacation", "rm"]: try VacationCommands.remove(context)
        case ["vacation", "show"]: try VacationCommands.show(context)
        case ["visit"]: try VacationCommands.visit(context)
        case ["unvisit"]: try VacationCommands.unvisit(context)
        case ["itinerary"]: try VacationCommands.itinerary(context)
        case ["tags"]: try VacationCommands.tags(context)
        case ["movies", "add"]: try MovieCommands.add(context)
        case ["movies", "delete"]: try MovieCommands.delete(context)
        case ["movies", "search"]: try MovieCommands.search(context)
        case ["movies", "edit"]: try MovieCommands.edit(context)
        case ["movies", "list"]: try MovieCommands.list(context)
        case ["movies", "browse"]: try MovieCommands.browse(context)
        case ["admin", "create-feed"]: try AdminCommands.createFeed(context)
        case ["admin", "delete-feed"]: try AdminCommands.deleteFeed(context)
        case ["admin", "reset-feed"]: try AdminCommands.resetFeed(context)
        case ["admin", "reset-feeds"]: try AdminCommands.resetFeeds(context)
        case ["admin", "delete-snap"]: try AdminCommands.deleteSnap(context)
        case ["admin", "restore-view"]: try AdminCommands.restoreView(context)
        case ["admin", "users"]: try AdminCommands.users(context)
        case ["admin", "stats"]: try AdminCommands.stats(context)
        case ["admin", "unlock"]: try AdminCommands.unlock(context)
        case ["admin", "promote"]: try AdminCommands.setAdmin(context, true)
        case ["admin", "demote"]: try AdminCommands.setAdmin(context, false)
        case ["admin", "reset-password"]: try AdminCommands.resetPassword(context)
        default: throw ClientError(.usage, "unknown command \(context.parsed.path.joined(separator: " "))")
        }
    }
}
