import Foundation
import TestSupport
import Testing
import Wire

/// `snapshare movies`, run as a person would run it, against a real server over TLS.
@Suite("Movies from the command line")
struct MovieCommandLineTests {
    /// A user with their own client state folder, logged in to `server`.
    struct Fan {
        let home = TemporaryDirectory("snapshare-movies-home")
        let server: TestServer
        var environment: [String: String] {
            ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        }

        init(_ name: String, server: TestServer) throws {
            self.server = server
            let registered = try Subprocess.run(
                "snapshare", ["register", name, "--password-stdin"], environment: environment,
                stdin: "\(name) password 1\n")
            guard registered.status == 0 else { throw ProcessError("register \(name): \(registered.stderr)") }
        }

        func run(_ arguments: String..., stdin: String? = nil) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
        }

        /// `movies list --json` as (title, genre, sales) rows.
        func listed() throws -> [[String: Any]] {
            let list = try run("movies", "list", "--json")
            guard list.status == 0 else { throw ProcessError("movies list: \(list.stderr)") }
            return try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        }
    }

    @Test("a fan adds, searches, edits, lists and deletes movies")
    func theWholeListFromTheCommandLine() throws {
        let server = try TestServer()
        let ada = try Fan("ada", server: server)
        let added = try ada.run("movies", "add", "--title", "The Matrix", "--genre", "Science fiction", "--sales", "463517383")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("$463,517,383"))
        #expect(try ada.run("movies", "add", "--title", "amélie", "--genre", "Comedy", "--sales", "174200000").status == 0)
        #expect(
            try ada.run("movies", "add", "--title", "  Up  ", "--genre", "Animation", "--sales", "0", "--json").stdout
                == "{\"title\":\"Up\",\"genre\":\"Animation\",\"sales\":0}\n")

        let rows = try ada.listed()
        #expect(rows.map { $0["title"] as? String } == ["amélie", "The Matrix", "Up"])
        #expect(rows.map { $0["genre"] as? String } == ["Comedy", "Science fiction", "Animation"])
        #expect(rows.map { $0["sales"] as? Int } == [174_200_000, 463_517_383, 0])
        let table = try ada.run("movies", "list")
        #expect(table.stdout.contains("TITLE"))
        #expect(table.stdout.contains("$174,200,000"))

        let found = try ada.run("movies", "search", "THE MATRIX")
        #expect(found.status == 0)
        #expect(found.stdout.contains("Title:         The Matrix"))
        #expect(found.stdout.contains("Genre:         Science fiction"))
        #expect(found.stdout.contains("Ticket sales:  $463,517,383"))

        let part = try ada.run("movies", "search", "matr")
        #expect(part.status == 0 && part.stdout.contains("Title:         The Matrix"), "a part of the title in any case finds it")
        let missing = try ada.run("movies", "search", "Matrix Reloaded")
        #expect(missing.status == 5)
        #expect(missing.stderr.contains("No movie in your favorites has \"Matrix Reloaded\" in its title"))
        #expect(missing.stdout.isEmpty)

        let edited = try ada.run("movies", "edit", "up", "--sales", "735099082")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdout.contains("\"Up\": Animation, ticket sales $735,099,082"))
        let renamed = try ada.run("movies", "edit", "the matrix", "--title", "The Matrix (1999)", "--genre", "Action")
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout.contains("\"The Matrix (1999)\": Action, ticket sales $463,517,383"), "\(renamed.stdout)")
        #expect(try ada.run("movies", "edit", "THE MATRIX (1999)", "--title", "The Matrix").status == 0, "found in any case")
        #expect(try ada.run("movies", "edit", "Nope", "--sales", "1").status == 5)

        let deleted = try ada.run("movies", "delete", "AMÉLIE")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("Deleted \"amélie\""))
        #expect(try ada.run("movies", "delete", "amélie").status == 5)
        #expect(try ada.listed().map { $0["title"] as? String } == ["The Matrix", "Up"])
    }

    @Test("bad input gets a clear error and nothing is half-saved")
    func badInputIsRefused() throws {
        let server = try TestServer()
        let ada = try Fan("ada", server: server)
        #expect(try ada.run("movies", "add", "--title", "Heat", "--genre", "Crime", "--sales", "187436818").status == 0)
        let cases: [([String], Int32, String)] = [
            (["--genre", "Drama", "--sales", "1"], 2, "missing --title TITLE"),
            (["--title", "X", "--sales", "1"], 2, "missing --genre GENRE"),
            (["--title", "X", "--genre", "Drama"], 2, "missing --sales DOLLARS"),
            (["--title", "X"], 2, "missing --genre GENRE and --sales DOLLARS"),
            (["--title", "   ", "--genre", "Drama", "--sales", "1"], 2, "--title cannot be empty"),
            (["--title", "X", "--genre", "Drama", "--sales", "-5"], 2, "--sales cannot be negative"),
            (["--title", "X", "--genre", "Drama", "--sales", "lots"], 2, "whole number of dollars"),
            (["--title", "X", "--genre", "Drama", "--sales", "9223372036854775808"], 2, "at most 9223372036854775807"),
            (["--title", String(repeating: "t", count: 201), "--genre", "Drama", "--sales", "1"], 8, "at most 200 characters"),
            (["--title", "X", "--genre", String(repeating: "g", count: 61), "--sales", "1"], 8, "at most 60 characters"),
            (["--title", "Bell\u{7}", "--genre", "Drama", "--sales", "1"], 8, "control characters"),
            (["--title", "HEAT", "--genre", "Thriller", "--sales", "5"], 8, "you already have a movie titled \"Heat\""),
        ]
        for (arguments, status, message) in cases {
            let result = try Subprocess.run("snapshare", ["movies", "add"] + arguments, environment: ada.environment)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try ada.run("movies", "edit", "Heat", "--sales", "-1").status == 2)
        #expect(try ada.run("movies", "edit", "Heat").status == 2)
        let rows = try ada.listed()
        #expect(rows.count == 1)
        #expect(rows.first?["genre"] as? String == "Crime")
        #expect(rows.first?["sales"] as? Int == 187_436_818)
    }

    @Test("browsing walks one record at a time and says exactly where the ends are")
    func browsingFromAScript() throws {
        let server = try TestServer()
        let ada = try Fan("ada", server: server)
        for (title, sales) in [("Casablanca", "10462500"), ("Alien", "106285522"), ("Brazil", "9929135")] {
            #expect(try ada.run("movies", "add", "--title", title, "--genre", "Classic", "--sales", sales).status == 0)
        }
        let browse = try ada.run("movies", "browse", stdin: "p\nnn n\npp p x q n")
        #expect(browse.status == 0, "\(browse.stderr)")
        let lines = browse.stdout.split(separator: "\n").map(String.init)
        let shown = lines.filter { $0.hasPrefix("Title:") || $0 == "No more records" || $0 == "Showing the first Record" }
        #expect(
            shown == [
                "Title:         Alien",
                "Showing the first Record",
                "Title:         Brazil",
                "Title:         Casablanca",
                "No more records",
                "Title:         Brazil",
                "Title:         Alien",
                "Showing the first Record",
            ])
        #expect(lines.contains("Ticket sales:  $106,285,522"))
        #expect(lines.contains("Movie 3 of 3"))
        #expect(browse.stderr.contains("Unknown key 'x'"))

        // Running out of keys ends the browse as q does.
        let short = try ada.run("movies", "browse", stdin: "n")
        #expect(short.status == 0)
        #expect(short.stdout.components(separatedBy: "Title:").count == 3)
    }

    @Test("browsing or listing an empty list says so, and each fan sees only their own movies")
    func emptyListsAndPrivacy() throws {
        let server = try TestServer()
        let ada = try Fan("ada", server: server)
        let bob = try Fan("bob", server: server)
        let empty = try bob.run("movies", "browse", stdin: "nnq")
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("No movies yet"))
        #expect(try bob.run("movies", "list").stdout.contains("No movies yet"))
        #expect(try bob.run("movies", "list", "--json").stdout == "[]\n")
        #expect(try ada.run("movies", "add", "--title", "Jaws", "--genre", "Thriller", "--sales", "476512065").status == 0)
        #expect(try bob.run("movies", "search", "Jaws").status == 5)
        #expect(try bob.run("movies", "delete", "Jaws").status == 5)
        #expect(try bob.run("movies", "add", "--title", "Jaws", "--genre", "Horror", "--sales", "1").status == 0)
        #expect(try ada.listed().first?["genre"] as? String == "Thriller")
    }

    @Test("every movies command has help, and movies need a login")
    func helpAndLogin() throws {
        for command in [
            ["movies"], ["movies", "add"], ["movies", "delete"], ["movies", "search"], ["movies", "edit"],
            ["movies", "list"], ["movies", "browse"],
        ] {
            let result = try Subprocess.run("snapshare", command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.contains("Usage"), "\(command)")
        }
        let browseHelp = try Subprocess.run("snapshare", ["movies", "browse", "--help"])
        #expect(browseHelp.stdout.contains("Showing the first Record"))
        let server = try TestServer()
        let home = TemporaryDirectory("snapshare-movies-home")
        let anonymous = try Subprocess.run(
            "snapshare", ["movies", "list"],
            environment: [
                "SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address,
                "SNAPSHARE_CA": server.caPath,
            ])
        #expect(anonymous.status == 4)
    }
}
