import Client
import Foundation
import Imaging
import Server
import TestSupport
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// Purging old snaps, exporting the class's snaps as files (opened in a real browser), an
/// admin's look at a snap without a view, and the end of a term, against a real server (on
/// PostgreSQL too, with SNAPSHARE_TEST_DATABASE=postgresql).
@Suite("The class's data: purge, export, end of term")
struct ClassDataTests {
    static let day: Int64 = 86_400_000

    /// A PNG of one colour, easy to find again in a screenshot.
    static func solid(_ color: RGBImage.Color, width: Int = 320, height: Int = 240) throws -> [UInt8] {
        try ImageCodec.encodePNG(RGBImage(width: width, height: height, color: color))
    }

    static let red = RGBImage.Color(red: 220, green: 30, blue: 40)
    static let blue = RGBImage.Color(red: 30, green: 60, blue: 210)

    /// The environment of a `snapshare` command logged in to `server`.
    static func cli(_ server: TestServer, _ home: TemporaryDirectory) -> [String: String] {
        ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
    }

    /// An admin's session, and the environment of their `snapshare` commands, logged in with
    /// `home` (the caller's, so it outlives the commands).
    static func loggedInAdmin(_ server: TestServer, home: TemporaryDirectory, _ name: String = "teacher") throws -> (
        SnapshareSession, [String: String]
    ) {
        let session = try server.makeAdmin(name)
        let environment = cli(server, home)
        let login = try Subprocess.run(
            "snapshare", ["login", name, "--password-stdin"], environment: environment, stdin: "correct horse battery\n")
        #expect(login.status == 0, "\(login.stderr)")
        return (session, environment)
    }

    /// Runs the server's expiry purge, waits until it has committed, and checks it erased the
    /// picture of snap `id`.
    static func erase(_ id: UInt64, on server: TestServer) throws {
        try server.purgeExpired()
        #expect(
            try server.count("SELECT count(*) FROM snap_images WHERE snap_id = \(Int64(id))") == 0, "the purge did not erase snap \(id)")
    }

    @Test("admin purge --older-than counts, asks (refused without a terminal or --yes), deletes only older snaps, and is audited")
    func purgeOlderThan() throws {
        let time = ManualClock(startingAt: WallClock.system.now() - 40 * Self.day)
        let server = try TestServer(clock: time.clock)
        let alice = try server.registeredSession("alice")
        let old = try (1...2).map { try alice.post(feed: "Memes", image: TestImages.sample($0)).id }
        time.advance(byMilliseconds: 35 * Self.day)
        let recent = try alice.post(feed: "Memes", image: TestImages.sample(3)).id
        time.advance(byMilliseconds: 5 * Self.day)
        let home = TemporaryDirectory("snapshare-admin-home")
        let (_, environment) = try Self.loggedInAdmin(server, home: home)

        let unasked = try Subprocess.run("snapshare", ["admin", "purge", "--older-than", "30d"], environment: environment)
        #expect(
            unasked.status == 2 && unasked.stderr.contains("Delete the 2 snaps posted more than 30d ago")
                && unasked.stderr.contains("--yes"),
            "\(unasked.stderr)")
        #expect(try server.count("SELECT count(*) AS n FROM snaps") == 3, "nothing went without an answer")
        let bad = try Subprocess.run("snapshare", ["admin", "purge", "--older-than", "soon", "--yes"], environment: environment)
        #expect(bad.status == 2 && bad.stderr.contains("positive duration"), "\(bad.stderr)")

        let purged = try Subprocess.run(
            "snapshare", ["admin", "purge", "--older-than", "30d", "--yes", "--json"], environment: environment)
        #expect(purged.status == 0 && purged.stdout.contains("\"deleted\":2"), "\(purged.stdout)\(purged.stderr)")
        let left = try server.count("SELECT count(*) AS n FROM snaps")
        #expect(left == 1)
        #expect(try server.count("SELECT count(*) AS n FROM snaps WHERE id = \(Int64(recent))") == 1, "the recent snap stays: \(old)")
        let nothing = try Subprocess.run("snapshare", ["admin", "purge", "--older-than", "30d"], environment: environment)
        #expect(nothing.status == 0 && nothing.stdout.contains("nothing to purge"), "\(nothing.stdout)")

        // The offline twin, by the machine's clock: the recent snap is 5 days old.
        let offline = try Subprocess.run("snapshare-server", ["admin", "purge", "--older-than", "3d", "--yes"] + server.storeArguments)
        #expect(offline.status == 0 && offline.stdout.contains("Purged 1 snap"), "\(offline.stdout)\(offline.stderr)")
        let audit = try server.openStore().auditEntries(since: 0, limit: 100)
        #expect(
            audit.filter { $0.action == "AdminPurge" && $0.actor == "teacher" && $0.result == "ok" }.count == 1,
            "the dry runs are not actions: \(audit)")
        #expect(audit.contains { $0.action == "admin purge" && $0.actor.hasPrefix("offline:") && $0.target.contains("3d") }, "\(audit)")
    }

    @Test(
        """
        export writes a folder per feed with every kept picture, \
        snaps.json with who opened what, and a gallery; the same from the admin's client
        """
    )
    func exportFromServerAndClient() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock)
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let expiring = try alice.post(feed: "Random", image: TestImages.sample(2))
        time.advance(byMilliseconds: 8 * Self.day)
        try Self.erase(expiring.id, on: server)
        let redPNG = try Self.solid(Self.red)
        let red = try alice.post(feed: "Memes", image: redPNG)
        let blue = try bob.post(feed: "Dog Spots", image: try Self.solid(Self.blue))
        _ = try bob.open(snapID: red.id)
        let home = TemporaryDirectory("snapshare-admin-home")
        let (admin, environment) = try Self.loggedInAdmin(server, home: home)

        let directory = TemporaryDirectory("snapshare-export")
        let exported = try Subprocess.run("snapshare-server", ["export", "--to", directory.file("server")] + server.storeArguments)
        #expect(
            exported.status == 0 && exported.stdout.contains("Exported 3 snaps in 3 feeds") && exported.stdout.contains("2 pictures"),
            "\(exported.stdout)\(exported.stderr)")
        let root = directory.file("server")
        #expect(FileManager.default.contents(atPath: root + "/Memes/\(red.id).png") == Data(redPNG), "the picture as posted")
        #expect(FileManager.default.fileExists(atPath: root + "/Dog Spots/\(blue.id).png"))
        #expect(!FileManager.default.fileExists(atPath: root + "/Random/\(expiring.id).jpg"), "an erased picture has no file")
        #expect(try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.attributesOfItem(atPath: root + "/Memes/\(red.id).png")[.posixPermissions] as? Int == 0o600)

        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/snaps.json"))) as? [String: Any])
        let feeds = try #require(document["feeds"] as? [[String: Any]])
        #expect(feeds.map { $0["name"] as? String } == ["Dog Spots", "Memes", "Random"])
        let memes = try #require((feeds[1]["snaps"] as? [[String: Any]])?.first)
        #expect(memes["poster"] as? String == "alice" && memes["picture"] as? String == "Memes/\(red.id).png")
        let opened = try #require(memes["opened_by"] as? [[String: Any]])
        #expect(opened.count == 1 && opened[0]["user"] as? String == "bob" && (opened[0]["at"] as? String)?.hasSuffix("Z") == true)
        let gone = try #require((feeds[2]["snaps"] as? [[String: Any]])?.first)
        #expect(gone["picture"] is NSNull && gone["expires_at"] is String)
        let html = try String(contentsOfFile: root + "/index.html", encoding: .utf8)
        #expect(
            html.contains("src=\"Dog%20Spots/\(blue.id).png\"") && html.contains("picture expired and erased") && !html.contains("<script"))

        // The admin's client writes the same export over the protocol, spending no view.
        let fromClient = directory.file("client")
        let client = try Subprocess.run("snapshare", ["admin", "export", "--to", fromClient, "--json"], environment: environment)
        #expect(
            client.status == 0 && client.stdout.contains("\"snaps\":3") && client.stdout.contains("\"pictures\":2"),
            "\(client.stdout)\(client.stderr)")
        #expect(FileManager.default.contents(atPath: fromClient + "/Memes/\(red.id).png") == Data(redPNG))
        func withoutTime(_ path: String) throws -> String {
            try String(contentsOfFile: path, encoding: .utf8).replacing(/"exported_at": "[^"]*"/, with: "")
        }
        #expect(try withoutTime(fromClient + "/snaps.json") == withoutTime(root + "/snaps.json"), "one export, whichever side writes it")
        #expect(try admin.snapViews(red.id).viewers.map(\.username) == ["bob"], "the export spent no view")
        let again = try Subprocess.run("snapshare", ["admin", "export", "--to", fromClient], environment: environment)
        #expect(again.status != 0 && again.stderr.contains("not empty"), "an export never mixes with other files: \(again.stderr)")
        let studentHome = TemporaryDirectory("snapshare-student-home")
        let student = Self.cli(server, studentHome)
        _ = try Subprocess.run("snapshare", ["login", "alice", "--password-stdin"], environment: student, stdin: "correct horse battery\n")
        let refused = try Subprocess.run("snapshare", ["admin", "export", "--to", directory.file("alice")], environment: student)
        #expect(refused.status != 0 && refused.stderr.contains("needs the role instructor"), "\(refused.stderr)")
    }

    @Test("admin view shows any snap's picture, spends no view, adds no viewer, and is audited; an erased one is EXPIRED")
    func adminViewSpendsNothing() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock)
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(5))
        let home = TemporaryDirectory("snapshare-admin-home")
        let (admin, _) = try Self.loggedInAdmin(server, home: home)
        let looked = try admin.adminView(snap.id)
        #expect(looked.image == TestImages.sample(5))
        #expect(try admin.snapViews(snap.id).viewers.isEmpty, "no viewer")
        #expect(try admin.open(snapID: snap.id).image == TestImages.sample(5), "the admin's own view is still unspent")
        _ = try bob.open(snapID: snap.id)
        #expect(try admin.snapViews(snap.id).viewers.map(\.username).sorted() == ["bob", "teacher"])
        #expect(clientError { _ = try bob.adminView(snap.id) }?.serverCode == .forbidden)
        #expect(clientError { _ = try admin.adminView(9_999) }?.serverCode == .notFound)
        time.advance(byMilliseconds: 8 * Self.day)
        try Self.erase(snap.id, on: server)
        #expect(clientError { _ = try admin.adminView(snap.id) }?.serverCode == .expired)
        let audit = try server.openStore().auditEntries(since: 0, limit: 100).filter { $0.action == "AdminViewSnap" }
        #expect(audit.map(\.result) == ["ok", "FORBIDDEN", "NOT_FOUND", "EXPIRED"] && audit[0].target == "snap \(snap.id)", "\(audit)")
    }

    @Test("the exported gallery opens in headless Chromium, and its screenshot shows the class's pictures")
    func galleryInChromium() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let red = try alice.post(feed: "Memes", image: try Self.solid(Self.red))
        _ = try bob.open(snapID: red.id)
        for sample in [2, 9] { _ = try bob.post(feed: "Memes", image: TestImages.sample(sample)) }
        _ = try alice.post(feed: "Dog Spots", image: try Self.solid(Self.blue, width: 240, height: 320))
        _ = try bob.post(feed: "Dog Spots", image: TestImages.sample(3))
        for sample in [1, 4, 7, 10] { _ = try alice.post(feed: "Random", image: TestImages.sample(sample)) }
        let directory = TemporaryDirectory("snapshare-gallery")
        let export = directory.file("export")
        let exported = try Subprocess.run("snapshare-server", ["export", "--to", export] + server.storeArguments)
        #expect(exported.status == 0, "\(exported.stderr)")

        let chromium = try #require(
            ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "Chromium is not installed: apt-get install chromium (.ci/run installs it)")
        let shot = directory.file("gallery.png")
        let run = try Subprocess.runTool(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=" + directory.file("profile"), "--window-size=1280,900",
                "--screenshot=" + shot, "file://" + export + "/index.html",
            ], timeout: 120)
        #expect(run.status == 0, "\(run.stderr)")
        let image = try ImageCodec.decode(try [UInt8](Data(contentsOf: URL(fileURLWithPath: shot))), limits: .standard)
        func pixels(near color: RGBImage.Color) -> Int { image.count { $0.isNear(color, tolerance: 11) } }
        // Each picture is drawn in a box about 200 by 170 pixels, kept in proportion: the landscape
        // red one about 200 by 150, the portrait blue one about 128 by 170.
        #expect(pixels(near: Self.red) > 15_000, "the red snap is on the page")
        #expect(pixels(near: Self.blue) > 10_000, "the blue (portrait) snap is on the page")
        if let keep = ProcessInfo.processInfo.environment["SNAPSHARE_SCREENSHOTS"] {
            try? FileManager.default.removeItem(atPath: keep + "/export-gallery.png")
            try FileManager.default.copyItem(atPath: shot, toPath: keep + "/export-gallery.png")
        }
    }

    @Test("end-term archives first, then leaves a working, empty class with the same feeds and admins; --keep-accounts keeps the students")
    func endOfTerm() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(1))
        _ = try bob.open(snapID: snap.id)
        _ = try bob.addPin(latitude: 48.85, longitude: 2.35)
        let home = TemporaryDirectory("snapshare-admin-home")
        let (admin, _) = try Self.loggedInAdmin(server, home: home)
        let directory = TemporaryDirectory("snapshare-term")

        let unasked = try Subprocess.run("snapshare-server", ["end-term", "--archive", directory.file("a.backup")] + server.storeArguments)
        #expect(unasked.status == 2 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("a.backup")))
        #expect(try server.count("SELECT count(*) AS n FROM snaps") == 1)

        let kept = try Subprocess.run(
            "snapshare-server",
            ["end-term", "--archive", directory.file("kept.backup"), "--keep-accounts", "--yes"] + server.storeArguments)
        #expect(
            kept.status == 0 && kept.stdout.contains("Removed 1 snap, 1 view") && kept.stdout.contains("accounts kept"),
            "\(kept.stdout)\(kept.stderr)")
        #expect(try server.count("SELECT count(*) AS n FROM users") == 3)
        #expect(try server.count("SELECT count(*) AS n FROM sessions") == 0)
        #expect(endsWithinSeconds(alice), "a running server closes the ended sessions' connections")
        let (returning, returningHome) = try server.session()
        _ = try returning.login(username: "alice", password: "correct horse battery")
        let next = try returning.post(feed: "Memes", image: TestImages.sample(2))
        #expect(next.id > snap.id)

        let archive = directory.file("term.backup")
        let ended = try Subprocess.run("snapshare-server", ["end-term", "--archive", archive, "--yes"] + server.storeArguments)
        #expect(
            ended.status == 0 && ended.stdout.contains("Archived")
                && ended.stdout.contains("2 accounts and the roster (0 names); the admins stay"), "\(ended.stdout)\(ended.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int == 0o600)
        let again = try Subprocess.run("snapshare-server", ["end-term", "--archive", archive, "--yes"] + server.storeArguments)
        #expect(
            again.status == 1 && again.stderr.contains("exists already"),
            "the archive is never written over, and nothing is removed: \(again.stderr)")

        // The same server goes on: the admin logs in again, the feeds are there, a new student registers and posts.
        #expect(try server.count("SELECT count(*) AS n FROM users") == 1)
        #expect(try server.count("SELECT count(*) AS n FROM pins") == 0)
        #expect(endsWithinSeconds(admin) && endsWithinSeconds(returning))
        let (teacher, teacherHome) = try server.session()
        _ = try teacher.login(username: "teacher", password: "correct horse battery")
        #expect(try teacher.feeds().map(\.name).sorted() == ["Dog Spots", "Memes", "Random"])
        #expect(try teacher.snaps(feed: nil).snaps.isEmpty)
        let newcomer = try server.registeredSession("alice")
        _ = try newcomer.post(feed: "Memes", image: TestImages.sample(3))
        let audit = try server.openStore().auditEntries(since: 0, limit: 100).filter { $0.action == "end-term" }
        // Each run is one entry, the refused ones too (no terminal to ask on; an archive that exists).
        #expect(
            audit.map { $0.result.prefix(8) } == ["refused:", "ok", "ok", "refused:"]
                && audit.allSatisfy { $0.actor.hasPrefix("offline:") },
            "\(audit)")

        // The archive holds the term that ended.
        let restored = try Subprocess.run("snapshare-server", ["restore", "--from", archive, "--data", directory.file("look-back")])
        #expect(restored.status == 0 && restored.stdout.contains("users              3"), "\(restored.stdout)\(restored.stderr)")
        withExtendedLifetime((returningHome, teacherHome)) {}
    }
}
