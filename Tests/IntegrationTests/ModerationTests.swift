import Client
import Foundation
import Server
import TestSupport
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// Reports, the admins' queue, unsend and suspensions against a real server (on PostgreSQL too,
/// with SNAPSHARE_TEST_DATABASE=postgresql).
@Suite("Moderation: reports, the queue, unsend, suspensions")
struct ModerationTests {
    static let day: Int64 = 86_400_000

    static func pictureStored(_ id: UInt64, _ server: TestServer) throws -> Bool {
        try server.count("SELECT count(*) FROM snap_images WHERE snap_id = \(Int64(id))") == 1
    }

    @Test("a viewer reports a snap once; the poster, a second report, an unknown or expired snap and an empty reason are refused")
    func reportRules() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock)
        let poster = try server.registeredSession("omar")
        let viewer = try server.registeredSession("lena")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(1))
        try viewer.report(snapID: snap.id, reason: "  not for class  ")
        #expect(clientError { try viewer.report(snapID: snap.id, reason: "again") }?.serverCode == .alreadyExists)
        let own = clientError { try poster.report(snapID: snap.id, reason: "mine") }
        #expect(own?.serverCode == .ownSnap && own?.message.contains("snapshare unsend \(snap.id)") == true, "\(String(describing: own))")
        #expect(clientError { try viewer.report(snapID: 9_999, reason: "x") }?.serverCode == .notFound)
        #expect(clientError { try viewer.report(snapID: snap.id, reason: "   ") }?.serverCode == .invalidArgument)
        #expect(
            clientError { try viewer.report(snapID: snap.id, reason: String(repeating: "x", count: 201)) }?.serverCode == .invalidArgument)
        let later = try poster.post(feed: "Memes", image: TestImages.sample(2))
        time.advance(byMilliseconds: 8 * Self.day)
        #expect(clientError { try viewer.report(snapID: later.id, reason: "x") }?.serverCode == .expired)
        let (stranger, _) = try server.session()
        #expect(clientError { try stranger.report(snapID: snap.id, reason: "x") }?.serverCode == .authRequired)
        let reports = try server.openStore().openReports()
        #expect(
            reports.count == 1
                && reports[0].reports == [
                    SnapReport(reporter: "lena", reason: "not for class", reportedAt: reports[0].reports[0].reportedAt)
                ])
    }

    @Test("a reported snap's picture survives its expiry, its last view and a feed reset, and is erased once the report is dismissed")
    func reportedPictureIsKept() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock)
        let poster = try server.registeredSession("omar")
        let viewer = try server.registeredSession("lena")
        let admin = try server.makeAdmin("teacher")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(3))
        let other = try poster.post(feed: "Memes", image: TestImages.sample(4))
        _ = try viewer.open(snapID: snap.id)
        try viewer.report(snapID: snap.id, reason: "rude")
        #expect(try Self.pictureStored(snap.id, server), "its last view erased nothing")
        #expect(try admin.resetFeed("Memes") == 2)
        #expect(try viewer.snaps(feed: nil).snaps.isEmpty, "the reset ends it for everyone")
        #expect(try server.count("SELECT count(*) FROM snaps WHERE id = \(Int64(other.id))") == 0, "an unreported snap is deleted")
        time.advance(byMilliseconds: 8 * Self.day)
        try server.purgeExpired()
        #expect(try Self.pictureStored(snap.id, server), "the purge passes a reported snap by")
        #expect(try admin.adminView(snap.id).image == TestImages.sample(3), "the admins still see it")
        let queue = try admin.reports()
        #expect(queue.map(\.snapID) == [snap.id] && queue[0].poster == "omar" && queue[0].pictureKept)
        try admin.resolveReport(snapID: snap.id, .dismiss)
        #expect(try !Self.pictureStored(snap.id, server), "once resolved, what expired is erased at once")
        #expect(try admin.reports().isEmpty)
        #expect(clientError { try admin.resolveReport(snapID: snap.id, .dismiss) }?.serverCode == .notFound)
    }

    @Test(
        """
        resolve --delete with a suspension: the snap goes, the poster's posts, \
        pins and reports are refused with the end time until unsuspended or the time passes
        """
    )
    func deleteAndSuspend() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock)
        let poster = try server.registeredSession("omar")
        let viewer = try server.registeredSession("lena")
        let admin = try server.makeAdmin("teacher")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(5))
        let lenas = try viewer.post(feed: "Memes", image: TestImages.sample(6))
        try viewer.report(snapID: snap.id, reason: "inappropriate")
        #expect(clientError { try viewer.resolveReport(snapID: snap.id, .delete) }?.serverCode == .forbidden)
        try admin.resolveReport(snapID: snap.id, .delete, suspendFor: 7 * Self.day)
        #expect(try server.count("SELECT count(*) FROM snaps WHERE id = \(Int64(snap.id))") == 0)
        #expect(try admin.reports().isEmpty)

        let refused = try #require(clientError { _ = try poster.post(feed: "Memes", image: TestImages.sample(7)) })
        #expect(
            refused.serverCode == .forbidden && refused.message.contains("suspended from posting until ") && refused.message.contains("UTC")
                && refused.message.contains("reported and removed"), "\(refused.message)")
        #expect(clientError { _ = try poster.addPin(latitude: 1, longitude: 2) }?.message.contains("suspended from dropping pins") == true)
        #expect(
            clientError { try poster.report(snapID: lenas.id, reason: "revenge") }?.message.contains("suspended from reporting") == true)
        _ = try poster.open(snapID: lenas.id)
        #expect(try poster.snaps(feed: nil).snaps.count == 1, "a suspended student still logs in and opens snaps")

        try admin.unsuspend("omar")
        _ = try poster.post(feed: "Memes", image: TestImages.sample(7))
        #expect(clientError { try admin.unsuspend("omar") }?.serverCode == .notFound)

        try admin.suspend("omar", for: 3_600_000, reason: "spamming the feed")
        let again = try #require(clientError { _ = try poster.post(feed: "Memes", image: TestImages.sample(8)) })
        #expect(again.message.contains("spamming the feed") && again.message.contains("in 1h"), "\(again.message)")
        time.advance(byMilliseconds: 3_600_001)
        _ = try poster.post(feed: "Memes", image: TestImages.sample(8))
        #expect(clientError { try admin.suspend("teacher", for: 1000, reason: "x") }?.serverCode == .invalidArgument)
        #expect(clientError { try admin.suspend("nobody", for: 1000, reason: "x") }?.serverCode == .notFound)
        #expect(clientError { try admin.suspend("omar", for: 0, reason: "x") }?.serverCode == .invalidArgument)

        let audit = try server.openStore().auditEntries(since: 0, limit: 100).filter { $0.actor == "teacher" }
        #expect(audit.contains { $0.action == "AdminResolveReport" && $0.target == "snap \(snap.id) deleted, poster suspended for 1w" })
        #expect(audit.contains { $0.action == "AdminSuspend" && $0.target == "user omar for 1h: spamming the feed" && $0.result == "ok" })
        #expect(audit.contains { $0.action == "AdminUnsuspend" && $0.result == "NOT_FOUND" })
    }

    @Test("unsend: the poster's snap leaves every listing and its picture is erased, unless it is reported; nobody else can unsend it")
    func unsend() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("omar")
        let viewer = try server.registeredSession("lena")
        let gone = try poster.post(feed: "Memes", image: TestImages.sample(1))
        let reported = try poster.post(feed: "Memes", image: TestImages.sample(2))
        #expect(clientError { try viewer.unsend(snapID: gone.id) }?.serverCode == .notFound)
        try poster.unsend(snapID: gone.id)
        #expect(try viewer.snaps(feed: nil).snaps.map(\.id) == [reported.id])
        #expect(try server.count("SELECT count(*) FROM snaps WHERE id = \(Int64(gone.id))") == 0)
        #expect(clientError { _ = try viewer.open(snapID: gone.id) }?.serverCode == .notFound)
        try viewer.report(snapID: reported.id, reason: "mean")
        try poster.unsend(snapID: reported.id)
        #expect(try viewer.snaps(feed: nil).snaps.isEmpty && poster.snaps(feed: nil).snaps.isEmpty)
        #expect(try Self.pictureStored(reported.id, server), "kept for the admins while reported")
        #expect(clientError { _ = try viewer.open(snapID: reported.id) }?.serverCode == .expired)
    }

    @Test("the command line: report, admin reports --json, admin view, admin resolve --delete --suspend-poster, unsend --yes")
    func commandLine() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("omar")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(9))
        _ = try server.makeAdmin("teacher")
        let studentHome = TemporaryDirectory("snapshare-student")
        let adminHome = TemporaryDirectory("snapshare-teacher")
        func environment(_ home: TemporaryDirectory) -> [String: String] {
            ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        }
        _ = try server.registeredSession("lena")
        for (name, home) in [("lena", studentHome), ("teacher", adminHome)] {
            let login = try Subprocess.run(
                "snapshare", ["login", name, "--password-stdin"], environment: environment(home), stdin: "correct horse battery\n")
            #expect(login.status == 0, "\(login.stderr)")
        }
        let noReason = try Subprocess.run("snapshare", ["report", "\(snap.id)"], environment: environment(studentHome))
        #expect(noReason.status == 2 && noReason.stderr.contains("--reason"), "\(noReason.stderr)")
        let reported = try Subprocess.run(
            "snapshare", ["report", "\(snap.id)", "--reason", "not for class"], environment: environment(studentHome))
        #expect(reported.status == 0 && reported.stdout.contains("Reported snap \(snap.id)"), "\(reported.stderr)")
        let queue = try Subprocess.run("snapshare", ["admin", "reports", "--json"], environment: environment(adminHome))
        #expect(
            queue.status == 0 && queue.stdout.contains("\"reporter\":\"lena\"") && queue.stdout.contains("\"reason\":\"not for class\""),
            "\(queue.stdout)\(queue.stderr)")
        let table = try Subprocess.run("snapshare", ["admin", "reports"], environment: environment(adminHome))
        #expect(
            table.stdout.contains("omar") && table.stdout.contains("not for class") && table.stdout.contains("admin view ID"),
            "\(table.stdout)")
        let looked = try Subprocess.run("snapshare", ["admin", "view", "\(snap.id)"], environment: environment(adminHome))
        #expect(looked.status == 0 && looked.stdout.contains("admin-viewed snap \(snap.id)"), "\(looked.stderr)")
        let both = try Subprocess.run(
            "snapshare", ["admin", "resolve", "\(snap.id)", "--dismiss", "--delete"], environment: environment(adminHome))
        #expect(both.status == 2)
        let resolved = try Subprocess.run(
            "snapshare", ["admin", "resolve", "\(snap.id)", "--delete", "--suspend-poster", "7d"],
            environment: environment(adminHome))
        #expect(resolved.status == 0 && resolved.stdout.contains("suspended for 1w"), "\(resolved.stdout)\(resolved.stderr)")
        let own = try Subprocess.run(
            "snapshare", ["post", "--sample", "2", "--feed", "Memes", "--json"], environment: environment(studentHome))
        #expect(own.status == 0, "\(own.stderr)")
        let id = try #require(own.stdout.firstMatch(of: /"id":(\d+)/).map { String($0.1) })
        let unasked = try Subprocess.run("snapshare", ["unsend", id], environment: environment(studentHome))
        #expect(unasked.status == 2 && unasked.stderr.contains("--yes"))
        let unsent = try Subprocess.run("snapshare", ["unsend", id, "--yes"], environment: environment(studentHome))
        #expect(unsent.status == 0 && unsent.stdout.contains("Unsent snap \(id)"), "\(unsent.stderr)")
    }

    @Test(
        """
        --moderation queue: a student's new snap is seen only by its poster (as awaiting approval) until an admin approves it; \
        a rejected one is deleted
        """
    )
    func approvalQueue() throws {
        let server = try TestServer { $0.moderation = .queue }
        let poster = try server.registeredSession("omar")
        let viewer = try server.registeredSession("lena")
        let admin = try server.makeAdmin("teacher")
        let posted = try poster.post(feed: "Memes", image: TestImages.sample(1))
        #expect(posted.state == .pending)
        #expect(try poster.snaps(feed: nil).snaps.map(\.state) == [.pending])
        #expect(try viewer.snaps(feed: nil).snaps.isEmpty && viewer.feeds().allSatisfy { $0.snapCount == 0 && $0.unreadCount == 0 })
        #expect(clientError { _ = try viewer.open(snapID: posted.id) }?.serverCode == .notFound)
        #expect(clientError { try viewer.report(snapID: posted.id, reason: "x") }?.serverCode == .notFound)
        let own = try admin.post(feed: "Memes", image: TestImages.sample(2))
        #expect(own.state == .sent, "an admin's snap needs no approval")
        #expect(try admin.pending().map(\.id) == [posted.id])
        #expect(try admin.adminView(posted.id).image == TestImages.sample(1), "the admin looks before approving")

        // A version-2 client (1.0) is told `sent`: it has no word for awaiting approval.
        let old = try server.connection(versions: 2...2)
        _ = try old.roundTrip(Login(username: "omar", password: "correct horse battery"))
        let listed = try old.roundTrip(ListSnaps(feed: "")).decode(Snaps.self, version: 2)
        #expect(listed.snaps.first { $0.id == posted.id }?.state == .sent)

        try admin.approve(snapID: posted.id, true)
        #expect(try viewer.snaps(feed: nil).snaps.first { $0.id == posted.id }?.state == .unread)
        #expect(try poster.snaps(feed: nil).snaps.first { $0.id == posted.id }?.state == .sent)
        #expect(clientError { try admin.approve(snapID: posted.id, true) }?.serverCode == .notFound)
        let rejected = try poster.post(feed: "Memes", image: TestImages.sample(3))
        try admin.approve(snapID: rejected.id, false)
        #expect(try server.count("SELECT count(*) FROM snaps WHERE id = \(Int64(rejected.id))") == 0)
        #expect(clientError { try viewer.approve(snapID: own.id, true) }?.serverCode == .forbidden)

        var open = server.configuration
        open.moderation = .off
        server.server.reload(open, changedOptions: ["--moderation"])
        #expect(try poster.post(feed: "Memes", image: TestImages.sample(4)).state == .sent, "off again at a reload")
        let audit = try server.openStore().auditEntries(since: 0, limit: 50).filter { $0.action == "AdminApproveSnap" }.map(\.target)
        #expect(audit.contains("snap \(posted.id) approved") && audit.contains("snap \(rejected.id) rejected"), "\(audit)")
    }
}
