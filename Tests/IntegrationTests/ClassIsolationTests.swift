import Client
import Foundation
import Server
import TestSupport
import Testing
import Wire

/// Two classes on one server (issue 34): each class's feeds, snaps, reports, roster and audit are
/// its own; a member of one gets NOT_FOUND for the other's ids, as if they did not exist; a TA
/// moderates but does not touch accounts, exports or purges, and every refusal names the role it
/// would take; an old client acts in its default class. Real server, real TLS, both engines.
@Suite("Classes kept apart")
struct ClassIsolationTests {
    /// A server with its first class (`class`, which the server's own registration joins) and a
    /// second, `lab`, owned by the site admin `dean` and joined with the code `LAB-CODE`.
    struct TwoClasses {
        let server: TestServer
        let dean: SnapshareSession

        init() throws {
            server = try TestServer()
            dean = try server.makeAdmin("dean")
            let made = try server.offline("admin", "create-class", "lab", "--name", "Lab Section", "--owner", "dean", "--code", "LAB-CODE")
            #expect(made.status == 0, "\(made.stderr)")
            // dean's live session learns of their new class within a second; a new login has it at once.
            _ = try dean.login(username: "dean", password: "correct horse battery")
        }

        func student(_ name: String, inLab: Bool) throws -> SnapshareSession {
            try server.registeredSession(name, classCode: inLab ? "LAB-CODE" : nil)
        }
    }

    @Test("a student in one class sees only its feeds and snaps, and gets NOT_FOUND for the other class's ids")
    func classesKeepTheirSnaps() throws {
        let classes = try TwoClasses()
        let ada = try classes.student("ada", inLab: false)
        let bob = try classes.student("bob", inLab: true)
        let cleo = try classes.student("cleo", inLab: true)

        // Each class has its own Memes.
        let adas = try ada.post(feed: "Memes", image: TestImages.sample(1))
        let version = try ada.poll(knownVersion: 0).version
        let bobs = try bob.post(feed: "Memes", image: TestImages.sample(2))
        #expect(try ada.poll(knownVersion: version).changed == false, "a post in the lab does not wake the other class's pollers")
        #expect(try cleo.snaps(feed: "Memes").snaps.map(\.id) == [bobs.id])
        #expect(try ada.snaps(feed: nil).snaps.map(\.id) == [adas.id])
        #expect(try ada.feeds().first { $0.name == "Memes" }?.snapCount == 1)

        // Another class's snap is not there, whatever one does with its id, and says nothing more.
        for attempt in [
            clientError { _ = try ada.open(snapID: bobs.id) },
            clientError { try ada.report(snapID: bobs.id, reason: "spam") },
            clientError { _ = try ada.snapViews(bobs.id) },
            clientError { _ = try bob.open(snapID: adas.id) },
            clientError { _ = try classes.dean.adminView(adas.id) },
            clientError { try classes.dean.deleteSnap(adas.id) },
            clientError { try classes.dean.resolveReport(snapID: adas.id, .delete) },
        ] {
            #expect(attempt?.serverCode == .notFound && attempt?.message.contains("lab") == false, "\(String(describing: attempt))")
        }
        let opened = try cleo.open(snapID: bobs.id)
        #expect(opened.snap.id == bobs.id, "a classmate opens it")
        #expect(try classes.dean.snapViews(bobs.id).viewers.map(\.username) == ["cleo"], "the class's owner sees who opened it")

        // The staff's listings are the class's own.
        #expect(Set(try classes.dean.users().map(\.username)) == ["dean", "bob", "cleo"], "the lab's members, not ada")
        try cleo.report(snapID: bobs.id, reason: "not a meme")
        #expect(try classes.dean.reports().map(\.snapID) == [bobs.id])
        let lab = try classes.dean.exportSnaps(after: 0)
        #expect(lab.total == 1 && lab.snaps.map(\.id) == [bobs.id])
    }

    @Test("a TA resolves reports, approves and suspends for up to 7 days; accounts, export and purge need an instructor")
    func aTAModeratesButDoesNotRunTheClass() throws {
        let classes = try TwoClasses()
        let tina = try classes.student("tina", inLab: true)
        let bob = try classes.student("bob", inLab: true)
        let cleo = try classes.student("cleo", inLab: true)
        #expect(clientError { _ = try tina.reports() }?.message.contains("needs the role ta or above in the class lab") == true)
        let named = try classes.server.offline("admin", "set-role", "tina", "ta", "--class", "lab")
        #expect(named.status == 0 && named.stdout.hasPrefix("tina is now a ta in lab;"), "\(named.stdout)\(named.stderr)")
        // Her live connection takes up the role within a second: no new login.
        try eventually("tina's connection to be a TA's", timeout: 10, every: 0.1) { (try? tina.reports()) != nil }

        let snap = try bob.post(feed: "Memes", image: TestImages.sample(3))
        try cleo.report(snapID: snap.id, reason: "rude")
        #expect(try tina.reports().map(\.snapID) == [snap.id])
        try tina.resolveReport(snapID: snap.id, .delete, suspendFor: 3 * 86_400_000)
        let refused = clientError { _ = try bob.post(feed: "Memes", image: TestImages.sample(4)) }
        #expect(refused?.serverCode == .forbidden && refused?.message.contains("suspended") == true, "\(String(describing: refused))")
        try tina.unsuspend("bob")
        let long = clientError { try tina.suspend("bob", for: 8 * 86_400_000, reason: "again") }
        #expect(
            long?.serverCode == .forbidden && long?.message.contains("up to 7d") == true && long?.message.contains("instructor") == true)

        for (what, attempt) in [
            ("delete-user", clientError { try tina.deleteUser("bob") }),
            ("disable", clientError { try tina.setDisabled("bob", true) }),
            ("rename", clientError { try tina.rename("bob", to: "robert") }),
            ("export", clientError { _ = try tina.exportSnaps(after: 0) }),
            ("purge", clientError { _ = try tina.purge(olderThan: 86_400_000, dryRun: false) }),
            ("create-feed", clientError { try tina.createFeed("Week 1") }),
        ] {
            #expect(
                attempt?.serverCode == .forbidden
                    && attempt?.message.contains("needs the role instructor or above in the class lab") == true
                    && attempt?.message.contains("you are a ta there") == true,
                "\(what): \(String(describing: attempt))")
        }
        #expect(try classes.dean.auditLog(since: 0).contains { $0.actor == "tina" && $0.action == "AdminResolveReport" })

        // A co-instructor runs the class, but not its owner's account.
        #expect(try classes.server.offline("admin", "set-role", "ivy", "instructor", "--class", "lab").status == 1, "no ivy yet")
        let ivy = try classes.student("ivy", inLab: true)
        #expect(try classes.server.offline("admin", "set-role", "ivy", "instructor", "--class", "lab").status == 0)
        try eventually("ivy's connection to be an instructor's", timeout: 10, every: 0.1) { (try? ivy.users()) != nil }
        let aboveHer = clientError { try ivy.setDisabled("dean", true) }
        #expect(aboveHer?.serverCode == .forbidden && aboveHer?.message.contains("dean is a site admin") == true)
        try ivy.deleteUser("bob")
        #expect(try classes.server.openStore().user(named: "bob") == nil)

        // The audit log: the lab's entries are the lab's; the site admin reads every one.
        let labOnly = try classes.server.offline("admin", "audit", "--class", "lab", "--json")
        #expect(labOnly.stdout.contains("tina") && labOnly.stdout.contains("AdminDeleteUser"), "\(labOnly.stderr)")
        let firstClass = try classes.server.offline("admin", "audit", "--class", "class", "--json")
        #expect(!firstClass.stdout.contains("tina"), "\(firstClass.stdout)")
    }

    @Test("an account in another class too is the site admin's to change; a class's staff act on their class's members only")
    func accountsInSeveralClassesNeedTheSiteAdmin() throws {
        let classes = try TwoClasses()
        let ivy = try classes.student("ivy", inLab: true)
        _ = try classes.student("both", inLab: false)
        _ = try classes.student("stranger", inLab: false)
        #expect(try classes.server.offline("admin", "set-role", "ivy", "instructor", "--class", "lab").status == 0)
        #expect(try classes.server.offline("admin", "set-role", "both", "student", "--class", "lab").status == 0)
        try eventually("ivy's connection to be an instructor's", timeout: 10, every: 0.1) { (try? ivy.users()) != nil }
        let shared = clientError { try ivy.deleteUser("both") }
        #expect(
            shared?.serverCode == .forbidden && shared?.message.contains("in another class too") == true, "\(String(describing: shared))")
        let outside = clientError { try ivy.setDisabled("stranger", true) }
        #expect(outside?.serverCode == .notFound && outside?.message == "no user named stranger in the class lab")
        try classes.dean.deleteUser("both")
    }

    @Test("a version 1 and a version 3 client act in their default class and never see the other's snaps")
    func oldClientsActInTheirDefaultClass() throws {
        let classes = try TwoClasses()
        let ada = try classes.student("ada", inLab: false)
        let bob = try classes.student("bob", inLab: true)
        let adas = try ada.post(feed: "Memes", image: TestImages.sample(1))
        let bobs = try bob.post(feed: "Memes", image: TestImages.sample(2))
        for version: UInt16 in [1, 3] {
            let old = try classes.server.connection(versions: version...version)
            _ = try old.expect(try old.roundTrip(Login(username: "bob", password: "correct horse battery")), as: Authenticated.self)
            let listed = try old.expect(try old.roundTrip(ListSnaps(feed: "")), as: Snaps.self)
            #expect(listed.snaps.map(\.id) == [bobs.id], "version \(version)")
            let refused = try old.roundTrip(OpenSnap(snapID: adas.id)).decode(ErrorMessage.self)
            #expect(refused.code == .notFound, "version \(version): \(refused)")
        }
    }

    @Test("registering takes a class's own code or the server's; a wrong or unknown code is refused and counted")
    func registeringJoinsTheClassOfTheCode() throws {
        let classes = try TwoClasses()
        _ = try classes.student("lab1", inLab: true)
        #expect(
            try classes.server.openStore().memberships(userID: try #require(try classes.server.openStore().user(named: "lab1")).id)
                .map(\.classRecord.handle) == ["lab"])
        let wrong = clientError { _ = try classes.server.registeredSession("guess", classCode: "NOT-A-CODE") }
        #expect(
            wrong?.serverCode == .badClassCode && wrong?.message == "wrong class code; ask your instructor", "\(String(describing: wrong))")
        #expect(try classes.server.openStore().user(named: "guess") == nil)
    }
}
