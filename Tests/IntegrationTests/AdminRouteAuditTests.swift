import Client
import Foundation
import TestSupport
import Testing
import Wire

@testable import Server

/// Every admin route of `RequestTable`, sent as docs/PROTOCOL.md shows it, against a real server:
/// what its route declares about the audit log is what happens. A student's attempt at it is one
/// FORBIDDEN entry, or none; and a request that leaves none must answer an admin without writing
/// anything (it runs with writes refused), so no admin request that changes something can go
/// unrecorded, whatever its route says.
@Suite struct AdminRouteAuditTests {
    /// The request frames docs/PROTOCOL.md shows, in the current protocol version, by type.
    static func documentedRequests() throws -> [UInt16: [UInt8]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        var frames: [UInt16: [UInt8]] = [:]
        for block in document.components(separatedBy: "<!-- vector: ").dropFirst() {
            let name = block.prefix { $0 != " " }
            // Vectors named v1-, v2-… show an older version's layout.
            guard name.range(of: #"^v[0-9]+-"#, options: .regularExpression) == nil, let start = block.range(of: "```hex\n"),
                let end = block.range(of: "```", range: start.upperBound..<block.endIndex)
            else { continue }
            let bytes = block[start.upperBound..<end.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap {
                UInt8($0, radix: 16)
            }
            guard bytes.count >= FrameHeader.size else { continue }
            let type = UInt16(bytes[4]) << 8 | UInt16(bytes[5])
            if frames[type] == nil { frames[type] = bytes }
        }
        return frames
    }

    @Test(
        """
        each admin route does what it declares: a student's try is one FORBIDDEN entry if recorded, \
        none if read-only; read-only ones write nothing
        """
    )
    func everyAdminRouteDoesWhatItDeclares() throws {
        let server = try TestServer()
        _ = try server.makeAdmin("teacher")
        _ = try server.registeredSession("mallory")
        let documented = try Self.documentedRequests()
        func loggedIn(_ name: String) throws -> ServerConnection {
            let connection = try server.connection()
            _ = try ServerConnection.expect(
                try connection.roundTrip(Login(username: name, password: "correct horse battery")), as: Authenticated.self)
            return connection
        }
        let student = try loggedIn("mallory")
        let admin = try loggedIn("teacher")
        func reply(to frame: [UInt8], on connection: ServerConnection) throws -> Frame {
            try connection.sendRaw(frame)
            let requestID = UInt32(frame[8]) << 24 | UInt32(frame[9]) << 16 | UInt32(frame[10]) << 8 | UInt32(frame[11])
            var reply = try connection.receive()
            while reply.requestID != requestID { reply = try connection.receive() }
            return reply
        }
        func entries() throws -> [AuditRecord] { try server.openStore().auditEntries(since: 0, limit: 10_000) }
        var expected = try entries().count
        #expect(expected == 1, "the offline admin add of the teacher")

        let routes = RequestTable.routes.filter { $0.audience.isAudited }
        #expect(routes.count >= 20 && routes.allSatisfy { $0.audit != nil })
        var unrecorded: [MessageType] = []
        for route in routes {
            let frame = try #require(documented[route.request.rawValue], "docs/PROTOCOL.md shows no \(route.request)")
            let refused = try reply(to: frame, on: student)
            #expect(
                refused.type == MessageType.error.rawValue && (try? refused.decode(ErrorMessage.self))?.code == .forbidden,
                "\(route.request)")
            // An entry is queued for the one storage writer before the reply goes out: it is in
            // once the writes queued so far have committed.
            try server.waitForQueuedWrites()
            let log = try entries()
            let added = Array(log.dropFirst(expected))
            expected = log.count
            if route.audit == .readOnly || added.isEmpty {
                #expect(added.isEmpty, "\(route.request) is declared read-only, yet recorded \(added)")
                unrecorded.append(route.request)
                // Nothing recorded: so it must have written nothing, as an admin too.
                let answer = try reply(to: frame, on: admin)
                let problem = answer.type == MessageType.error.rawValue ? (try? answer.decode(ErrorMessage.self))?.message ?? "" : ""
                #expect(answer.type == route.reply.rawValue, "\(route.request) is not recorded, yet answered an admin: \(problem)")
            } else {
                #expect(
                    added.count == 1
                        && added.first.map { ($0.actor, $0.action, $0.result) == ("mallory", "\(route.request.name)", "FORBIDDEN") }
                            == true,
                    "\(route.request), declared recorded: \(added)")
            }
        }
        // Unrecorded today: the listings, the log itself, and a purge's dry run (PROTOCOL.md shows one).
        #expect(
            Set([.adminListUsers, .adminAuditLog, .adminPurge]).isSubset(of: unrecorded) && !unrecorded.contains(.adminDeleteSnap),
            "\(unrecorded)")
        try server.waitForQueuedWrites()
        #expect(try entries().count == expected, "the admin's read-only requests added nothing")
    }
}
