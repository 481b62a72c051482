import Client
import Foundation
import Server
import TestSupport
import Testing
import Wire

/// Choosing the class a client acts in (protocol version 5): `snapshare classes`, `use`, `join`,
/// `--class` and `$SNAPSHARE_CLASS`, and the staff's `admin members`, `set-role` and
/// `remove-member`, through the real command line against a real server.
@Suite("Choosing a class")
struct ClassChoiceTests {
    /// A command line user with a state folder of their own.
    struct Person {
        let home = TemporaryDirectory("snapshare-class-home")
        let server: TestServer
        var extra: [String: String] = [:]

        init(_ server: TestServer, extra: [String: String] = [:]) {
            self.server = server
            self.extra = extra
        }

        var environment: [String: String] {
            ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath].merging(extra) { $1 }
        }

        @discardableResult
        func run(_ arguments: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws
            -> Subprocess.Result
        {
            try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
        }

        /// `run`, expecting success; its standard output.
        @discardableResult
        func ok(_ arguments: String..., stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let result = try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
            return result.stdout
        }
    }

    /// A server whose first class is `class` and a second, `lab`, owned by `prof`, with code LAB-CODE.
    static func twoClasses() throws -> (TestServer, Person) {
        let server = try TestServer()
        let prof = Person(server)
        try prof.ok("register", "prof", "--password-stdin", stdin: "prof password\n")
        let made = try server.offline("admin", "create-class", "lab", "--name", "Lab Section", "--owner", "prof", "--code", "LAB-CODE")
        #expect(made.status == 0, "\(made.stderr)")
        return (server, prof)
    }

    @Test("a student in two classes lists them with what is unread, and acts in the one chosen: use, --class, $SNAPSHARE_CLASS")
    func aStudentInTwoClassesChooses() throws {
        let (server, prof) = try Self.twoClasses()
        let ada = Person(server)
        try ada.ok("register", "ada", "--password-stdin", stdin: "ada password\n")
        #expect(try ada.ok("join", "LAB-CODE").contains("You are in lab (Lab Section) as a student, and act in it from now on."))
        try ada.ok("post", "--feed", "Memes", "--sample", "1")
        try prof.ok("use", "lab")
        try prof.ok("post", "--feed", "Memes", "--sample", "2")
        try prof.ok("post", "--feed", "Memes", "--sample", "3")

        let listed = try JSONSerialization.jsonObject(with: Data(try ada.ok("classes", "--json").utf8)) as? [[String: Any]] ?? []
        #expect(listed.map { $0["handle"] as? String } == ["class", "lab"])
        #expect(listed.map { $0["current"] as? Bool } == [false, true], "join chose the lab")
        #expect(listed.map { $0["unread"] as? Int } == [0, 2])
        let table = try ada.ok("classes")
        #expect(table.contains("*  lab") && table.contains("Lab Section") && table.contains("student"), "\(table)")

        // The choice is saved: every command acts in the lab until another is chosen.
        #expect(try ada.ok("feed", "Memes").contains("prof"))
        try ada.ok("use", "class")
        #expect(!(try ada.ok("feed", "Memes")).contains("prof"))
        let once = try ada.ok("--class", "lab", "feed", "Memes")
        #expect(once.contains("prof"), "--class for one command")
        var labByEnvironment = ada
        labByEnvironment.extra = ["SNAPSHARE_CLASS": "lab"]
        #expect(try labByEnvironment.ok("feed", "Memes").contains("prof"), "$SNAPSHARE_CLASS")
        #expect(!(try ada.ok("feed", "Memes")).contains("prof"), "and the saved choice stands")

        // A class one is not in is not there, in the same words whether it exists or not.
        let stranger = Person(server)
        try stranger.ok("register", "sam", "--password-stdin", stdin: "sam password\n")
        let lab = try stranger.run("use", "lab")
        let nowhere = try stranger.run("use", "nowhere")
        #expect(
            lab.status == 5
                && lab.stderr.replacingOccurrences(of: "lab", with: "X") == nowhere.stderr.replacingOccurrences(of: "nowhere", with: "X"))
        #expect(lab.stderr.contains("you are not in a class lab"), "\(lab.stderr)")
        #expect(try stranger.run("--class", "lab", "feeds").status == 5)
    }

    @Test("join refuses a wrong code (counted), and a roster class takes only its roster's names; joining twice only chooses")
    func joiningByCode() throws {
        let (server, _) = try Self.twoClasses()
        let bob = Person(server)
        try bob.ok("register", "bob", "--password-stdin", stdin: "bob password\n")
        let wrong = try bob.run("join", "LAB-C0DE")
        #expect(wrong.status == 4 && wrong.stderr.contains("wrong class code"), "\(wrong.stderr)")
        let empty = try bob.run("join", "")
        #expect(empty.status == 2, "\(empty.stderr)")
        try bob.ok("join", "LAB-CODE")
        #expect(try bob.ok("join", "LAB-CODE").contains("You are in lab"), "joining twice only chooses")
        #expect(try server.openStore().memberships(userID: try #require(try server.openStore().user(named: "bob")).id).count == 2)

        // A roster class: only its roster's names join, and the name becomes the joiner's.
        let store = try server.openStore()
        let rostered = try store.createClass(
            NewClass(handle: "seminar", name: "Seminar", code: "SEM-CODE", settings: ClassSettings(registration: .roster)), ownerID: nil,
            at: 1)
        try store.putRosterEntry(RosterEntry(name: "carl", displayName: "Carl", isAdmin: false, addedAt: 1), classID: rostered.id)
        let refused = try bob.run("join", "SEM-CODE")
        #expect(refused.status == 4 && refused.stderr.contains("not on this class's roster"), "\(refused.stderr)")
        let carl = Person(server)
        try carl.ok("register", "carl", "--password-stdin", stdin: "carl password\n")
        try carl.ok("join", "SEM-CODE")
        let roster = try server.offline("admin", "roster", "--class", "seminar", "--json")
        #expect(roster.stdout.contains("\"account\":\"carl\""), "the roster name is carl's now: \(roster.stdout)\(roster.stderr)")
    }

    @Test("the owner names a TA and a co-instructor; an instructor cannot name an owner; the last owner cannot step down")
    func staffManageMembers() throws {
        let (server, prof) = try Self.twoClasses()
        try prof.ok("use", "lab")
        let tina = Person(server)
        try tina.ok("register", "tina", "--password-stdin", stdin: "tina password\n")
        try tina.ok("join", "LAB-CODE")
        let ivy = Person(server)
        try ivy.ok("register", "ivy", "--password-stdin", stdin: "ivy password\n")

        #expect(try prof.ok("admin", "set-role", "tina", "ta").contains("tina is a ta in lab now."))
        #expect(try tina.ok("admin", "reports").contains("No open reports"), "her role holds at once")
        let outsider = try prof.run("admin", "set-role", "ivy", "instructor")
        #expect(outsider.status == 5 && outsider.stderr.contains("they join with its code"), "\(outsider.stderr)")
        try ivy.ok("join", "LAB-CODE")
        try prof.ok("admin", "set-role", "ivy", "instructor")
        try ivy.ok("use", "lab")
        let members = try prof.ok("admin", "members")
        #expect(members.contains("prof") && members.contains("owner"), "\(members)")
        #expect(members.contains("ivy") && members.contains("instructor"), "\(members)")

        let ownerByInstructor = try ivy.run("admin", "set-role", "tina", "owner")
        #expect(ownerByInstructor.status == 4 && ownerByInstructor.stderr.contains("needs the role owner"), "\(ownerByInstructor.stderr)")
        let profByInstructor = try ivy.run("admin", "remove-member", "prof")
        #expect(profByInstructor.status == 4, "\(profByInstructor.stderr)")
        let byTA = try tina.run("admin", "set-role", "ivy", "student")
        #expect(byTA.status == 4 && byTA.stderr.contains("needs the role instructor or above in the class lab"), "\(byTA.stderr)")
        let lastOwner = try prof.run("admin", "set-role", "prof", "student")
        #expect(lastOwner.status == 8 && lastOwner.stderr.contains("last owner"), "\(lastOwner.stderr)")

        try ivy.ok("admin", "remove-member", "tina")
        let out = try tina.run("admin", "reports")
        #expect(out.status == 4 || out.status == 5, "out of the lab, tina acts in her default class as a student: \(out.stderr)")
        let audit = try server.offline("admin", "audit", "--class", "lab")
        #expect(audit.stdout.contains("AdminSetRole") && audit.stdout.contains("AdminRemoveMember"), "\(audit.stdout)")
        let badRole = try prof.run("admin", "set-role", "ivy", "boss")
        #expect(badRole.status == 2 && badRole.stderr.contains("the role is one of owner, instructor, ta, student"))
    }

    @Test("a class's staff cannot reach a site admin's account, nor one outside their class, to take it over")
    func staffCannotTakeOverAccounts() throws {
        let (server, prof) = try Self.twoClasses()
        try prof.ok("use", "lab")
        let dean = try server.offline("admin", "add", "dean", "--password-stdin", stdin: "dean password\n")
        #expect(dean.status == 0, "\(dean.stderr)")
        let stray = Person(server)
        try stray.ok("register", "stray", "--class-code", "LAB-CODE", "--password-stdin", stdin: "stray password\n")
        // A site admin joins the lab as a student: still theirs alone.
        let deanHome = Person(server)
        try deanHome.ok("login", "dean", "--password-stdin", stdin: "dean password\n")
        try deanHome.ok("join", "LAB-CODE")
        for attempt in [
            try prof.run("admin", "reset-password", "dean", "--password-stdin", stdin: "a taken password\n"),
            try prof.run("admin", "rename", "dean", "nobody"),
            try prof.run("admin", "set-role", "dean", "student"),
        ] {
            #expect(attempt.status == 4 && attempt.stderr.contains("site admin"), "\(attempt.stderr)")
        }
        #expect(try deanHome.ok("whoami").contains("dean"), "dean's session is whole")
        // The owner may still reset their own student's password.
        try prof.ok("admin", "reset-password", "stray", "--password-stdin", stdin: "a fresh password\n")
    }

    @Test("a version-4 connection has no class requests: UseClass is a fatal UNKNOWN_MESSAGE_TYPE")
    func version4HasNoClassRequests() throws {
        let (server, _) = try Self.twoClasses()
        let old = try server.connection(versions: 4...4)
        _ = try old.expect(try old.roundTrip(Login(username: "prof", password: "prof password")), as: Authenticated.self)
        // Sent as bytes: the client itself refuses to send what the version lacks.
        try old.sendRaw(Frame(UseClass(handle: "lab"), requestID: 9).encoded())
        let refused = try old.receive().decode(ErrorMessage.self)
        #expect(refused.code == .unknownMessageType && refused.fatal, "\(refused)")
    }
}
