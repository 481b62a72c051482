import Foundation
import Imaging
import TestSupport
import Testing

/// The `snapshare` and `snapshare-server` executables, run as a person would run them.
@Suite struct CommandLineTests {
    struct Student {
        let home = TemporaryDirectory("snapshare-cli-home")
        let server: TestServer
        var environment: [String: String] {
            // A true-colour terminal's environment, whatever the test runner's is.
            [
                "SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath,
                "COLORTERM": "truecolor", "TERM": "xterm-256color",
            ]
        }
        func run(_ arguments: String..., stdin: String? = nil) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
        }
    }

    @Test func helpIsAvailableOnEveryCommand() throws {
        for command in [
            [], ["app"], ["register"], ["login"], ["post"], ["feed"], ["feeds"], ["view"], ["samples"], ["admin"],
            ["admin", "restore-view"],
        ] {
            let result = try Subprocess.run("snapshare", command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.contains("Usage"), "\(command): \(result.stdout)")
        }
        let root = try Subprocess.run("snapshare", ["--help"])
        #expect(root.stdout.contains("Exit codes"))
        // No command and no terminal (a pipe, as here): the help, not the app.
        for bare in [[], ["--server", "localhost:7443"]] {
            let noCommand = try Subprocess.run("snapshare", bare)
            #expect(noCommand.status == 0 && noCommand.stdout.contains("app") && noCommand.stdout.contains("Exit codes"), "\(bare)")
        }
        let app = try Subprocess.run("snapshare", ["app"])
        #expect(app.status == 2 && app.stderr.contains("needs a terminal"), "\(app.stderr)")
        let server = try Subprocess.run("snapshare-server", ["--help"])
        #expect(server.status == 0)
        #expect(server.stdout.contains("--snap-ttl"))
    }

    @Test func aWatchedFeedPrintsANewListingWhenASnapArrivesAndWhenItIsRead() throws {
        let server = try TestServer()
        let alice = Student(server: server)
        let bob = Student(server: server)
        #expect(try alice.run("register", "alice", "--password-stdin", stdin: "alice password\n").status == 0)
        #expect(try bob.run("register", "bob", "--password-stdin", stdin: "bob password 1\n").status == 0)
        #expect(
            try bob.run("feed", "NoSuch", "--watch", "--interval", "0").status == 2, "a bad interval is a usage error before any request")
        #expect(try bob.run("feed", "--interval", "1").status == 2, "--interval needs --watch")
        let watch = try Subprocess.start("snapshare", ["feed", "--watch", "--json", "--interval", "0.2"], environment: bob.environment)
        defer { watch.kill() }
        #expect(watch.lines.next() == "[]", "the empty feed comes first")

        let post = try alice.run("post", "--feed", "Memes", "--sample", "3", "--json")
        let id = try #require(try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any])["id"] as? Int
        let arrived = try #require(watch.lines.next(), "a listing with the new snap")
        #expect(arrived.contains("\"id\":\(id ?? -1)") && arrived.contains("\"state\":\"unread\""), "\(arrived)")

        #expect(try bob.run("view", "\(id ?? -1)").status == 0)
        let read = try #require(watch.lines.next(), "a listing after bob's own open")
        #expect(read.contains("\"state\":\"read\""), "\(read)")
    }

    @Test func aStudentPostsAndAnotherViewsOnceFromTheCommandLine() throws {
        let server = try TestServer()
        let alice = Student(server: server)
        let bob = Student(server: server)
        #expect(try alice.run("register", "alice", "--password-stdin", stdin: "alice password\n").status == 0)
        #expect(try bob.run("register", "bob", "--password-stdin", stdin: "bob password 1\n").status == 0)

        let samples = try alice.run("samples", "--json")
        #expect(samples.status == 0)
        #expect(samples.stdout.contains("\"number\":10"))

        let post = try alice.run("post", "--feed", "Memes", "--sample", "3", "--json")
        #expect(post.status == 0, "\(post.stderr)")
        let snap = try #require(try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any])
        let id = try #require(snap["id"] as? Int)
        #expect(snap["state"] as? String == "sent")
        #expect(snap["feed"] as? String == "Memes")
        #expect(snap["poster"] as? String == "alice")
        #expect(snap["posted_at"] is String)

        let human = try alice.run("post", "--feed", "Random", "--sample", "1")
        #expect(human.stdout.contains("Posted snap"))

        let feed = try bob.run("feed", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(feed.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0["state"] as? String == "unread" })

        let text = try bob.run("feed")
        #expect(text.stdout.contains("Memes"))
        #expect(text.stdout.contains("alice"))
        #expect(text.stdout.contains("unread"))
        #expect(text.stdout.contains("ago") || text.stdout.contains("just now"))

        let jsonView = try bob.run("view", "\(id)", "--json")
        #expect(jsonView.status == 2 && jsonView.stderr.contains("would spend your one view"), "\(jsonView.stderr)")
        let view = try bob.run("view", "\(id)")
        #expect(view.status == 0, "the refused --json spent nothing: \(view.stderr)")
        let last = view.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("viewed snap \(id) 256x170 80670 sha256:"), "\(last)")
        #expect(view.stdout.contains("\u{1B}[0;38;2;"), "the drawing uses true colour")

        let again = try bob.run("view", "\(id)")
        #expect(again.status == 6 && again.stderr.contains("you already opened snap \(id)"), "\(again.stderr)")
        let own = try alice.run("view", "\(id)")
        #expect(own.status == 8 && own.stderr.contains("snap \(id) is yours"), "\(own.stderr)")
        #expect(try bob.run("view", "999999").status == 5, "not found")
        #expect(try bob.run("view", "abc").status == 2, "usage")
        #expect(try bob.run("admin", "users").status == 4, "not an admin")

        let listing = try bob.run("feed", "Memes", "--json")
        #expect(listing.stdout.contains("\"state\":\"read\""))

        let whoami = try bob.run("whoami")
        #expect(whoami.stdout.contains("bob"))
        #expect(try bob.run("logout").status == 0)
        let loggedOut = try bob.run("feeds")
        #expect(loggedOut.status == 4, "logged out")
        #expect(
            loggedOut.stderr.contains("not logged in to \(server.address); run `snapshare login USER` or `snapshare register USER`"),
            "\(loggedOut.stderr)")
        #expect(try bob.run("login", "bob", "--password-stdin", stdin: "wrong password\n").status == 4)
        #expect(try bob.run("login", "bob", "--password-stdin", stdin: "bob password 1\n").status == 0)
    }

    @Test func theInstructorManagesTheClassFromTheCommandLine() throws {
        let server = try TestServer()
        let add = try Subprocess.run(
            "snapshare-server", ["admin", "add", "teacher", "--password-stdin"] + server.storeArguments,
            stdin: "teacher password\n")
        #expect(add.status == 0, "\(add.stderr)")
        let teacher = Student(server: server)
        let student = Student(server: server)
        #expect(try teacher.run("login", "teacher", "--password-stdin", stdin: "teacher password\n").status == 0)
        #expect(try student.run("register", "sam", "--password-stdin", stdin: "sam password\n").status == 0)
        #expect(try teacher.run("admin", "create-feed", "Lecture 1").status == 0)
        let post = try student.run("post", "--feed", "Lecture 1", "--sample", "2", "--json")
        let id = (try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any])?["id"] as? Int ?? 0
        #expect(try teacher.run("view", "\(id)").status == 0)
        #expect(try teacher.run("view", "\(id)").status == 6)
        #expect(try teacher.run("admin", "restore-view", "\(id)", "teacher").status == 0)
        let promoted = try Subprocess.run("snapshare-server", ["admin", "add", "sam"] + server.storeArguments)
        #expect(promoted.status == 0 && promoted.stdout == "sam is now an admin.\n", "\(promoted.stdout)\(promoted.stderr)")
        let ghost = try Subprocess.run("snapshare-server", ["admin", "add", "ghost"] + server.storeArguments)
        #expect(
            ghost.status == 2 && ghost.stderr.contains("ghost does not exist yet; give its password with --password-stdin"),
            "\(ghost.stderr)")
        let badName = try Subprocess.run("snapshare-server", ["admin", "add", "no spaces"] + server.storeArguments)
        #expect(badName.status == 2, "\(badName.stderr)")
        #expect(try teacher.run("view", "\(id)").status == 0)
        let users = try teacher.run("admin", "users", "--json")
        #expect(users.stdout.contains("\"username\":\"sam\""))
        let stats = try teacher.run("admin", "stats", "--json")
        #expect(stats.stdout.contains("\"users\":2"))
        #expect(try teacher.run("admin", "reset-feeds").status == 2, "needs --all")
        let unasked = try teacher.run("admin", "reset-feeds", "--all")
        #expect(unasked.status == 2 && unasked.stderr.contains("add --yes"), "no terminal to ask on: refused")
        let reset = try teacher.run("admin", "reset-feeds", "--all", "--yes", "--json")
        #expect(reset.stdout.contains("\"deleted\":1"), "the refusal deleted nothing: \(reset.stdout)")
        #expect(try teacher.run("admin", "delete-feed", "Lecture 1").status == 2)
        #expect(try teacher.run("admin", "delete-feed", "Lecture 1", "--yes").status == 0)
        let again = try teacher.run("admin", "delete-feed", "Lecture 1", "--yes")
        #expect(again.status == 5)
        let typo = try teacher.run("admin", "reset-feed", "Memse", "--yes")
        #expect(typo.status == 5 && typo.stderr.contains("no feed named Memse; did you mean Memes?"), "\(typo.stderr)")
        // Password help for a student: a reset that does not promote, then the student's own change.
        let reset2 = try teacher.run("admin", "reset-password", "sam", "--password-stdin", stdin: "a new password\n")
        #expect(reset2.status == 0, "\(reset2.stderr)")
        #expect(try student.run("whoami").status == 4, "the reset ended sam's session")
        #expect(try student.run("login", "sam", "--password-stdin", stdin: "a new password\n").status == 0)
        let changed = try student.run("passwd", "--password-stdin", stdin: "a new password\nmy own password\n")
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(try student.run("whoami").status == 0, "passwd keeps this session")
        let wrongOld = try student.run("passwd", "--password-stdin", stdin: "not my password\nwhatever pw\n")
        #expect(wrongOld.status == 4, "\(wrongOld.stderr)")
        #expect(try teacher.run("admin", "unlock", "sam").status == 0)
    }

    @Test func aLargePhotoIsShrunkBeforePostingAndAnUnreadableFileSaysWhy() throws {
        let server = try TestServer {
            $0.maxImageBytes = 200_000
            $0.maxImageDimension = 800
        }
        let student = Student(server: server)
        #expect(try student.run("register", "pat", "--password-stdin", stdin: "pat password\n").status == 0)
        var generator = SeededGenerator(seed: 3)
        let noise = RGBImage(
            width: 1200, height: 900, pixels: (0..<1200 * 900 * 3).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let path = student.home.path + "/phone.png"
        try Data(try ImageCodec.encodePNG(noise)).write(to: URL(fileURLWithPath: path))
        let posted = try student.run("post", "--feed", "Memes", "--file", path)
        #expect(posted.status == 0, "\(posted.stderr)")
        #expect(
            posted.stderr.contains("Shrank \(path) from 1200x900") && posted.stderr.contains("aspect ratio is kept"), "\(posted.stderr)")
        // Noise barely compresses, so it ends smaller than 800x600 to fit 200 KB too; always 4:3.
        let size = try #require(posted.stdout.firstMatch(of: /, (\d+)x(\d+),/))
        let (width, height) = (Int(size.1) ?? 0, Int(size.2) ?? 0)
        #expect(width <= 800 && abs(Double(width) / Double(height) - 4.0 / 3.0) < 0.02, "\(posted.stdout)")
        let missing = try student.run("post", "--feed", "Memes", "--file", "no/such/rex.jpg")
        #expect(missing.status == 1 && missing.stderr.contains("cannot read no/such/rex.jpg: no such file"), "\(missing.stderr)")
        let folder = try student.run("post", "--feed", "Memes", "--file", student.home.path)
        #expect(folder.stderr.contains("it is a folder"), "\(folder.stderr)")
    }

    @Test func theSavedCAAndSessionWorkFromAnyFolderAndUnderEitherName() throws {
        let server = try TestServer()
        let student = Student(server: server)
        #expect(try student.run("register", "lee", "--password-stdin", stdin: "lee password\n").status == 0)
        func run(_ environment: [String: String], _ arguments: String...) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment)
        }
        var relative = student.environment
        relative["SNAPSHARE_CA"] = "class-certs/ca.pem" // an export made in another folder
        let fromElsewhere = try run(relative, "whoami")
        #expect(fromElsewhere.status == 0, "\(fromElsewhere.stderr)")
        #expect(fromElsewhere.stderr.contains("using the CA saved at login"), "\(fromElsewhere.stderr)")
        var missing = student.environment
        missing["SNAPSHARE_CA"] = "/no/such/ca.pem"
        let refused = try run(missing, "whoami")
        #expect(refused.status == 3)
        #expect(
            refused.stderr.contains("cannot read the CA file /no/such/ca.pem (from SNAPSHARE_CA)")
                && refused.stderr.contains("your login saved \(server.caPath)"), "\(refused.stderr)")
        // Logged in through 127.0.0.1; localhost is the same server, by its certificate.
        var byName = student.environment
        byName["SNAPSHARE_SERVER"] = "localhost:\(server.port)"
        let same = try run(byName, "whoami")
        #expect(same.status == 0 && same.stdout.hasPrefix("lee"), "\(same.stdout)\(same.stderr)")
    }

    @Test func connectionFailuresAndUsageErrorsHaveTheirExitCodes() throws {
        let home = TemporaryDirectory("snapshare-cli-home")
        let port = ServerProcess.freePort()
        let down = try Subprocess.run(
            "snapshare", ["feeds"], environment: ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": "127.0.0.1:\(port)"])
        #expect(down.status == 3)
        #expect(
            down.stderr.contains("cannot connect") && down.stderr.contains("is snapshare-server running at 127.0.0.1:\(port)?"),
            "\(down.stderr)")
        let badPort = try Subprocess.run("snapshare", ["feeds", "--server", "localhost:99999"], environment: ["SNAPSHARE_HOME": home.path])
        #expect(badPort.status == 2)
        #expect(
            badPort.stderr == "snapshare: bad server invalid address 'localhost:99999': the port must be from 0 to 65535\n",
            "one message, said once: \(badPort.stderr)")
        let unknown = try Subprocess.run(
            "snapshare", ["feeds"], environment: ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": "nosuchhost.invalid:7443"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("cannot resolve host nosuchhost.invalid"), "\(unknown.stderr)")
        #expect(try Subprocess.run("snapshare", ["bogus"]).status == 2)
        #expect(try Subprocess.run("snapshare", ["post", "--sample", "1"]).status == 2, "--feed is required")
    }

    @Test func offlineResetFeedsClearsSnaps() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        _ = try alice.post(feed: "Memes", image: TestImages.sample(4))
        _ = try alice.post(feed: "Random", image: TestImages.sample(4))
        let one = try Subprocess.run("snapshare-server", ["reset-feeds", "--feed", "Memes"] + server.storeArguments)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try alice.snaps(feed: nil).snaps.map(\.feed) == ["Random"])
        #expect(try Subprocess.run("snapshare-server", ["reset-feeds"] + server.storeArguments).status == 2)
        let missing = try Subprocess.run("snapshare-server", ["reset-feeds", "--feed", "Nope"] + server.storeArguments)
        #expect(missing.status == 1 && missing.stderr == "snapshare-server: no feed named Nope\n", "\(missing.stderr)")
        #expect(try Subprocess.run("snapshare-server", ["reset-feeds", "--feed", "  "] + server.storeArguments).status == 2)
        let padded = try Subprocess.run("snapshare-server", ["reset-feeds", "--feed", "  Random "] + server.storeArguments)
        #expect(
            padded.status == 0 && padded.stdout.contains("Reset Random: 1 snap deleted."),
            "names are read as the online command reads them: \(padded.stdout)")
        #expect(try Subprocess.run("snapshare-server", ["reset-feeds", "--all"] + server.storeArguments).status == 0)
        #expect(try alice.snaps(feed: nil).snaps.isEmpty)
    }
}
