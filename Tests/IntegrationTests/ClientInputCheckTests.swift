import Foundation
import TestSupport
import Testing

/// `snapshare` checks names and durations before it sends anything, with the words the server
/// and `snapshare-server admin add` use, and exits 2 (a usage error). Each command here points at
/// an address where nothing listens: a check made after connecting would exit 3 instead.
@Suite("The client checks names and durations before sending")
struct ClientInputCheckTests {
    let home = TemporaryDirectory("snapshare-check-home")

    func run(_ arguments: [String]) throws -> Subprocess.Result {
        try Subprocess.run("snapshare", arguments, environment: ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": "127.0.0.1:1"])
    }

    static let longName = String(repeating: "b", count: 300)

    @Test("a user name that breaks the rules is refused with the rule, as admin add words it, for every command that takes one")
    func userNames() throws {
        let offline = try Subprocess.run("snapshare-server", ["admin", "add", Self.longName, "--data", home.file("data")])
        #expect(offline.status == 2)
        let rule = try #require(
            offline.stderr.split(separator: "\n").first.map { $0.replacingOccurrences(of: "snapshare-server: ", with: "") })
        #expect(rule == "user names are 3 to 32 characters", "\(offline.stderr)")

        let commands: [[String]] = [
            ["admin", "rename", "zoe", Self.longName],
            ["admin", "rename", Self.longName, "zoe"],
            ["admin", "promote", Self.longName],
            ["admin", "demote", Self.longName],
            ["admin", "disable", Self.longName],
            ["admin", "enable", Self.longName],
            ["admin", "delete-user", Self.longName, "--yes"],
            ["admin", "suspend", Self.longName, "--for", "7d", "--reason", "spam"],
            ["admin", "unsuspend", Self.longName],
            ["admin", "unlock", Self.longName],
            ["admin", "restore-view", "1", Self.longName],
            ["admin", "reset-password", Self.longName, "--password-stdin"],
            ["register", Self.longName, "--password-stdin"],
            ["login", Self.longName, "--password-stdin"],
        ]
        for command in commands {
            let result = try run(command)
            #expect(result.status == 2, "\(command.prefix(2)): \(result.stderr)")
            #expect(
                result.stderr.contains(rule) && !result.stderr.contains("malformed") && !result.stderr.contains(Self.longName),
                "\(command.prefix(2)): \(result.stderr)")
        }
        let spaces = try run(["admin", "rename", "zoe", "zoe smith"])
        #expect(spaces.status == 2 && spaces.stderr.contains("user names use only letters, digits, '_', '.' and '-'"), "\(spaces.stderr)")
        let which = try run(["admin", "rename", "zoe", "zo"])
        #expect(which.status == 2 && which.stderr.contains("NEW"), "the message names which of the two is wrong: \(which.stderr)")
    }

    @Test("a feed name that breaks the rules is refused with the server's words for every command that takes one")
    func feedNames() throws {
        let long = String(repeating: "f", count: 300)
        let commands: [[String]] = [
            ["admin", "create-feed", long],
            ["admin", "delete-feed", long, "--yes"],
            ["admin", "reset-feed", long, "--yes"],
            ["feed", long],
            ["post", "--feed", long, "--sample", "1"],
        ]
        for command in commands {
            let result = try run(command)
            #expect(
                result.status == 2 && result.stderr.contains("feed names are at most 40 characters, got 300")
                    && !result.stderr.contains("malformed"),
                "\(command.prefix(2)): \(result.stderr)")
        }
        let blank = try run(["admin", "create-feed", "   "])
        #expect(blank.status == 2 && blank.stderr.contains("a feed name cannot be empty"), "\(blank.stderr)")
    }

    @Test("a duration that does not parse, or is not longer than nothing, says so and shows the forms accepted")
    func durations() throws {
        let commands: [(arguments: [String], option: String)] = [
            (["admin", "suspend", "zoe", "--reason", "spam", "--for"], "--for"),
            (["admin", "resolve", "12", "--delete", "--suspend-poster"], "--suspend-poster"),
            (["admin", "purge", "--yes", "--older-than"], "--older-than"),
            (["admin", "audit", "--since"], "--since"),
        ]
        for (arguments, option) in commands {
            let words = try run(arguments + ["3 days"])
            #expect(words.status == 2, "\(arguments.prefix(2)): \(words.stderr)")
            #expect(
                words.stderr.contains("'3 days'") && words.stderr.contains(option) && words.stderr.contains("30m")
                    && words.stderr.contains("7d") && words.stderr.contains("1d12h") && !words.stderr.contains("say for how long"),
                "\(arguments.prefix(2)): \(words.stderr)")
            guard option != "--since" else { continue }
            let zero = try run(arguments + ["0s"])
            #expect(
                zero.status == 2 && zero.stderr.contains("\(option) must be longer than 0s") && zero.stderr.contains("7d"),
                "\(arguments.prefix(2)): \(zero.stderr)")
        }
        let missing = try run(["admin", "suspend", "zoe", "--reason", "spam"])
        #expect(missing.status == 2 && missing.stderr.contains("say for how long with --for DURATION"), "\(missing.stderr)")
        let offline = try Subprocess.run("snapshare-server", ["admin", "purge", "--older-than", "3 days", "--data", home.file("data")])
        #expect(offline.status == 2 && offline.stderr.contains("'3 days'") && offline.stderr.contains("1d12h"), "\(offline.stderr)")
    }
}
