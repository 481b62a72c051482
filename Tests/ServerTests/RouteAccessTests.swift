import Foundation
import Testing
import Wire

@testable import Server

/// A route's admission (`RouteAccess`): the one place that decides who may send a request and
/// what its handler is given for them. Handlers never see the connection's user, so what is
/// tested here is all the checking there is.
@Suite struct RouteAccessTests {
    static let section = CurrentClass(id: 3, handle: "cs193p-f26", role: .student)
    static let student = AuthenticatedUser(id: 7, name: "ada", isAdmin: false, createdAt: 0, sessionHash: [1], currentClass: section)
    static let teacher = AuthenticatedUser(
        id: 1, name: "grace", isAdmin: true, createdAt: 0, sessionHash: [2],
        currentClass: CurrentClass(id: 3, handle: "cs193p-f26", role: nil))

    static func incoming<M: WireMessage>(_ message: M, from sender: AuthenticatedUser?) -> IncomingRequest {
        IncomingRequest(
            frame: Frame(message, requestID: 5), sender: sender,
            context: RequestContext(requestID: 5, peerAddress: "203.0.113.7"))
    }

    /// What `createFeed` admits `sender` as, or the code of its refusal.
    static func createFeedRefusal(from sender: AuthenticatedUser?, _ note: AuditNote = AuditNote()) -> ErrorCode? {
        refusal { _ = try createFeed.admit(incoming(AdminCreateFeed(name: "Week 3"), from: sender), note) }
    }

    /// The code of the refusal `admit` throws, or nil when it admits.
    static func refusal(_ admit: () throws -> Void) -> ErrorCode? {
        do {
            try admit()
            return nil
        } catch {
            return (error as? ErrorMessage)?.code ?? .internalError
        }
    }

    static func withOneTimePassword(_ user: AuthenticatedUser) -> AuthenticatedUser {
        var user = user
        user.mustChangePassword = true
        return user
    }

    static let createFeed = RouteAccess<AdminCreateFeed, Member>.staff(.instructor, .recorded { "feed \($0.name)" })

    @Test("a user route gives its handler the logged-in user and refuses a connection that has not logged in")
    func userRoute() throws {
        let access = RouteAccess<ListSnaps, AuthenticatedUser>.user
        let (request, caller) = try access.admit(Self.incoming(ListSnaps(feed: "general"), from: Self.student), AuditNote())
        #expect(request.feed == "general" && caller == Self.student)
        #expect(Self.refusal { _ = try access.admit(Self.incoming(ListSnaps(feed: ""), from: nil), AuditNote()) } == .authRequired)
        #expect(access.audience == .user && access.audit == nil)
    }

    @Test("an admin route gives its handler an Admin, refuses a student with FORBIDDEN and a stranger with AUTH_REQUIRED")
    func adminRoute() throws {
        let (request, admin) = try Self.createFeed.admit(Self.incoming(AdminCreateFeed(name: "Week 3"), from: Self.teacher), AuditNote())
        #expect(request.name == "Week 3" && admin.user == Self.teacher && admin.id == 1 && admin.name == "grace")
        #expect(admin.classID == 3 && admin.role == .owner, "a site admin acts as the class's owner")
        #expect(Self.createFeedRefusal(from: Self.student) == .forbidden)
        #expect(Self.createFeedRefusal(from: nil) == .authRequired)
        #expect(Self.createFeed.audience == .staff(.instructor) && Self.createFeed.audit == .recorded)
    }

    @Test("anyone may register, logged in or not, and its handler is given no one")
    func anyoneRoute() throws {
        let access = RouteAccess<Register, Void>.anyone
        let register = Register(username: "ada", password: "correct horse battery", classCode: "")
        _ = try access.admit(Self.incoming(register, from: nil), AuditNote())
        _ = try access.admit(Self.incoming(register, from: Self.withOneTimePassword(Self.student)), AuditNote())
    }

    @Test("with a one-time password only changing it, asking who one is, logging out, ping and poll are admitted")
    func oneTimePassword() throws {
        let student = Self.withOneTimePassword(Self.student)
        let teacher = Self.withOneTimePassword(Self.teacher)
        let listFeeds = RouteAccess<ListFeeds, AuthenticatedUser>.user
        #expect(Self.refusal { _ = try listFeeds.admit(Self.incoming(ListFeeds(), from: student), AuditNote()) } == .passwordChangeRequired)
        let change = ChangePassword(oldPassword: "one-time password", newPassword: "my own password")
        _ = try RouteAccess<ChangePassword, AuthenticatedUser>.user.admit(Self.incoming(change, from: student), AuditNote())
        _ = try RouteAccess<Poll, AuthenticatedUser>.user.admit(Self.incoming(Poll(knownVersion: 0), from: student), AuditNote())
        _ = try RouteAccess<WhoAmI, AuthenticatedUser>.user.admit(Self.incoming(WhoAmI(), from: student), AuditNote())
        // An admin with a one-time password is asked to change it; a student is still no admin.
        #expect(Self.createFeedRefusal(from: teacher) == .passwordChangeRequired)
        #expect(Self.createFeedRefusal(from: student) == .forbidden)
        #expect(RequestRoute.allowedBeforePasswordChange == [.changePassword, .whoAmI, .logout, .ping, .poll])
    }

    @Test("a refused admin request is noted for the audit log from the one decode, naming its target")
    func refusedAdminRequestIsNoted() throws {
        let note = AuditNote()
        #expect(Self.createFeedRefusal(from: Self.student, note) == .forbidden)
        let refused = HandlerOutcome(ErrorMessage(code: .forbidden, message: "this command is for admins"), requestID: 5)
        #expect(note.target(for: refused) == "feed Week 3")
        // A frame that does not decode is refused before anyone is admitted, and recorded under its type alone.
        let malformed = AuditNote()
        let garbage = IncomingRequest(
            frame: Frame(type: MessageType.adminCreateFeed.rawValue, requestID: 5, payload: [0xFF]),
            sender: Self.teacher, context: RequestContext(requestID: 5))
        #expect(Self.refusal { _ = try Self.createFeed.admit(garbage, malformed) } != nil)
        #expect(malformed.target(for: refused) == "(malformed request)")
    }

    @Test("an export's pictures are covered only for the admin the route admitted")
    func exportCoverageNeedsTheAdmittedAdmin() throws {
        let exports = ExportCoverage()
        var context = RequestContext(requestID: 5)
        context.exports = exports
        let snap = ExportedSnap(
            id: 42, feed: "general", poster: "ada", postedAt: 0, expiresAt: 1, imageKind: .png,
            byteCount: 4, width: 1, height: 1, pictureKept: true, viewers: [])
        let page = ExportedSnaps(total: 1, snaps: [snap])
        #expect(exports.listed(page, after: 0, admin: Self.teacher.id))
        let access = RouteAccess<AdminViewSnap, Member>.staff(.ta, .pictureUnlessExported)
        let outcome = HandlerOutcome(Ok(), for: context)
        let stranger = AuditNote()
        func look(by sender: AuthenticatedUser) -> IncomingRequest {
            IncomingRequest(frame: Frame(AdminViewSnap(snapID: 42), requestID: 5), sender: sender, context: context)
        }
        #expect(Self.refusal { _ = try access.admit(look(by: Self.student), stranger) } == .forbidden)
        #expect(stranger.target(for: outcome) == "snap 42", "a student's try is recorded, and covers nothing")
        let admitted = AuditNote()
        _ = try access.admit(look(by: Self.teacher), admitted)
        #expect(admitted.target(for: outcome) == nil, "the export's own picture is covered by its entry")
    }

    /// The sources of the Server module, by path relative to it.
    static func serverSources() throws -> [String: String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let server = root.appendingPathComponent("Sources/Server")
        var sources: [String: String] = [:]
        let files = try #require(FileManager.default.enumerator(at: server, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            sources[String(file.path.dropFirst(server.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
        }
        return sources
    }

    @Test("no handler checks rights itself: only the admission and the audit log read the sender, only the admission makes an Admin")
    func onlyTheAdmissionReadsTheSender() throws {
        let sources = try Self.serverSources()
        #expect(sources.count > 100 && sources["Handlers/RouteAccess.swift"] != nil)
        for (path, text) in sources {
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            #expect(!code.contains("requireUser(") && !code.contains("requireAdmin("), "\(path) checks rights itself")
            if code.range(of: #"\.sender\b"#, options: .regularExpression) != nil {
                #expect(["Handlers/RouteAccess.swift", "Handlers/AdminAudit.swift"].contains(path), "\(path) reads the connection's user")
            }
            if code.range(of: #"\bAdmin\("#, options: .regularExpression) != nil {
                #expect(path == "Handlers/RouteAccess.swift", "\(path) makes an Admin")
            }
        }
    }
}
