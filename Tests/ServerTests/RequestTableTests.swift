import Testing

@testable import Server
@testable import Wire

@Suite struct RequestTableTests {
    @Test func everyRequestTypeHasExactlyOneRouteAndNothingElseHasOne() {
        let requests = MessageType.all.filter { $0.isRequest && $0 != .hello }
        #expect(Set(RequestTable.routes.map(\.request.rawValue)) == Set(requests.map(\.rawValue)))
        #expect(RequestTable.routes.count == requests.count, "one declaration per request")
        #expect(RequestTable.route(MessageType.hello.rawValue) == nil, "Hello is the connection's own")
        #expect(RequestTable.route(MessageType.pong.rawValue) == nil)
    }

    @Test func repliesAreServerMessagesAndBarriersAreTheAccountRequests() {
        #expect(RequestTable.routes.allSatisfy { !$0.reply.isRequest })
        let barriers = Set(RequestTable.routes.filter(\.isBarrier).map(\.request.rawValue))
        // Who the connection is, and the class it acts in: nothing after them is read until they are answered.
        let identity: [MessageType] = [.register, .login, .loginWithDevice, .resume, .logout, .useClass, .joinClass]
        #expect(barriers == Set(identity.map(\.rawValue)))
    }

    @Test func imageRepliesRunAsStorageJobsAndOnlyPingAndPollOnTheLoop() {
        let loop = RequestTable.routes.filter { $0.venue == .eventLoop }.map(\.request.rawValue)
        #expect(Set(loop) == Set([MessageType.ping.rawValue, MessageType.poll.rawValue]))
        for route in RequestTable.routes where route.replySize == .image {
            #expect(route.venue == .storageReader || route.venue == .storageWriter, "\(route.request)")
        }
    }

    @Test("every admin route declares what the audit log records of it, and no other route does")
    func everyAdminRouteDeclaresItsAudit() {
        for route in RequestTable.routes {
            #expect(route.audience.isAudited == (route.audit != nil), "\(route.request)")
        }
        let recorded = RequestTable.routes.filter { $0.audit == .recorded }.map(\.request)
        #expect(recorded.contains(.adminDeleteSnap) && recorded.contains(.adminExportSnaps) && recorded.contains(.adminViewSnap))
    }
}
