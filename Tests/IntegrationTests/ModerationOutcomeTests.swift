import Client
import Foundation
import TestSupport
import Testing
import Wire

/// What moderation leaves behind, through the real binaries against a real server: a rejected
/// snap's poster is told why, and an export tells the class's snaps as the class saw them (no snap
/// awaiting approval unless asked, reported ones marked).
@Suite("Moderation outcomes: rejections told to their poster, exports that mark what the class did not see")
struct ModerationOutcomeTests {
    struct ExportedRow: Decodable {
        let id: UInt64
        let awaitingApproval: Bool
        let reports: Int
    }
    struct ExportedFeed: Decodable {
        let name: String
        let snaps: [ExportedRow]
    }
    struct ExportDocument: Decodable { let feeds: [ExportedFeed] }

    static func exported(_ directory: String) throws -> [UInt64: ExportedRow] {
        let document = try JSONDecoder.snakeCase.decode(
            ExportDocument.self, from: Data(contentsOf: URL(fileURLWithPath: directory + "/snaps.json")))
        return Dictionary(uniqueKeysWithValues: document.feeds.flatMap(\.snaps).map { ($0.id, $0) })
    }

    @Test(
        """
        an export leaves snaps awaiting approval out unless --include-pending, \
        then marks them; reported snaps are marked; online and offline
        """
    )
    func exportsMarkWhatTheClassDidNotSee() throws {
        let server = try TestServer { $0.moderation = .queue }
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let carol = try server.registeredSession("carol")
        let home = TemporaryDirectory("snapshare-admin-home")
        let (admin, environment) = try ClassDataTests.loggedInAdmin(server, home: home)
        let waiting = try alice.post(feed: "Memes", image: TestImages.sample(1))
        let approved = try bob.post(feed: "Memes", image: TestImages.sample(2))
        try admin.approve(snapID: approved.id, true)
        try carol.report(snapID: approved.id, reason: "not nice")
        let directory = TemporaryDirectory("snapshare-moderated-export")

        for (label, run) in [
            (
                "online",
                { (to: String, extra: [String]) in
                    try Subprocess.run("snapshare", ["admin", "export", "--to", to] + extra, environment: environment)
                }
            ),
            (
                "offline",
                { (to: String, extra: [String]) in
                    try Subprocess.run("snapshare-server", ["export", "--to", to] + extra + server.storeArguments)
                }
            ),
        ] {
            let plain = try run(directory.file("\(label)-plain"), [])
            #expect(plain.status == 0, "\(label): \(plain.stderr)")
            let rows = try Self.exported(directory.file("\(label)-plain"))
            #expect(rows[waiting.id] == nil, "\(label): a snap awaiting approval is not in the class's export")
            #expect(rows[approved.id]?.reports == 1 && rows[approved.id]?.awaitingApproval == false, "\(label)")
            let page = try String(contentsOfFile: directory.file("\(label)-plain/index.html"), encoding: .utf8)
            #expect(page.contains("reported once") && !page.contains("awaiting approval"), "\(label)")

            let all = try run(directory.file("\(label)-all"), ["--include-pending"])
            #expect(all.status == 0, "\(label): \(all.stderr)")
            let both = try Self.exported(directory.file("\(label)-all"))
            #expect(both[waiting.id]?.awaitingApproval == true, "\(label)")
            let marked = try String(contentsOfFile: directory.file("\(label)-all/index.html"), encoding: .utf8)
            #expect(
                marked.contains("awaiting approval: nobody but its poster saw it") && marked.contains("1 awaiting approval"), "\(label)")
        }
    }

    @Test(
        """
        a rejected snap is told to its poster with the reason, in feed listings, \
        until dismissed; nobody else sees it; an old client is not told
        """
    )
    func aRejectionIsToldToItsPoster() throws {
        let server = try TestServer { $0.moderation = .queue }
        _ = try server.registeredSession("lena")
        let omar = CommandLineTests.Student(server: server)
        #expect(try omar.run("register", "omar", "--password-stdin", stdin: "omar's password\n").status == 0)
        let teacherHome = TemporaryDirectory("snapshare-admin-home")
        let (_, environment) = try ClassDataTests.loggedInAdmin(server, home: teacherHome)
        let (session, sessionHome) = try server.session()
        _ = try session.login(username: "omar", password: "omar's password")
        let posted = try session.post(feed: "Memes", image: TestImages.sample(3))

        let reject = try Subprocess.run(
            "snapshare", ["admin", "reject", "\(posted.id)", "--reason", "off topic for this feed"], environment: environment)
        #expect(reject.status == 0 && reject.stdout.contains("its poster sees that it was rejected"), "\(reject.stdout)\(reject.stderr)")
        let json = try omar.run("feed", "--json")
        #expect(json.status == 0, "\(json.stderr)")
        #expect(
            json.stdout.contains("\"state\":\"rejected\"") && json.stdout.contains("\"rejection_reason\":\"off topic for this feed\""),
            "\(json.stdout)")
        let text = try omar.run("feed")
        #expect(
            text.stdout.contains("rejected by an admin: off topic for this feed") && text.stdout.contains("unsend \(posted.id)"),
            "\(text.stdout)")
        #expect(try server.registeredSession("nadia").snaps(feed: nil).snaps.isEmpty, "nobody else sees it")
        #expect(clientError { _ = try session.snapViews(posted.id) }?.serverCode == .notFound)

        // A version-3 client has no word for it: its listing does not show it.
        let old = try server.connection(versions: 3...3)
        _ = try old.roundTrip(Login(username: "omar", password: "omar's password"))
        #expect(try old.roundTrip(ListSnaps(feed: "")).decode(Snaps.self, version: 3).snaps.isEmpty)

        let dismissed = try omar.run("unsend", "\(posted.id)", "--yes")
        #expect(dismissed.status == 0, "\(dismissed.stderr)")
        #expect(try session.snaps(feed: nil).snaps.isEmpty, "dismissed")
        #expect(try omar.run("unsend", "\(posted.id)", "--yes").status == 5, "once")

        // Too long a reason is refused with the rule's words; the audit has the reason.
        let second = try session.post(feed: "Memes", image: TestImages.sample(4))
        let long = try Subprocess.run(
            "snapshare", ["admin", "reject", "\(second.id)", "--reason", String(repeating: "x", count: 201)],
            environment: environment)
        #expect(long.status == 2 && long.stderr.contains("reasons are at most 200 characters"), "checked before sending: \(long.stderr)")
        // The server holds the same rule for a client that does not check.
        let admin = try server.connection()
        _ = try admin.roundTrip(Login(username: "teacher", password: "correct horse battery"))
        let refused = try admin.roundTrip(AdminApproveSnap(snapID: second.id, approve: false, reason: String(repeating: "x", count: 201)))
        #expect(try refused.decode(ErrorMessage.self).code == .invalidArgument)
        let audit = try server.openStore().auditEntries(since: 0, limit: 50).map(\.target)
        #expect(audit.contains("snap \(posted.id) rejected: off topic for this feed"), "\(audit)")
        withExtendedLifetime(sessionHome) {}
    }
}
