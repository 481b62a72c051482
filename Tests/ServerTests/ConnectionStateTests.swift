import Testing

@testable import Server
@testable import Wire

@Suite struct ConnectionStateTests {
    let limits = ConnectionState.Limits(
        handshakeTimeout: 1000, idleTimeout: 5000, frameTimeout: 2000, loginTimeout: 3000,
        maxRequestsInFlight: 2, maxFrameBeforeLogin: 100, maxFrame: 10_000, bufferBudget: 1 << 20)

    static func isDispatch(_ decision: ConnectionState.FrameDecision) -> Bool {
        if case .dispatch = decision { return true }
        return false
    }

    func opened(now: Int64 = 0) -> ConnectionState {
        var state = ConnectionState(limits: limits, now: now)
        state.handshakeCompleted(now: now)
        _ = state.received(Frame(Hello(clientName: "t"), requestID: 1), now: now)
        return state
    }

    static let user = AuthenticatedUser(id: 1, name: "ada", isAdmin: false, createdAt: 0, sessionHash: [])

    @Test func theFirstFrameMustBeHello() {
        var state = ConnectionState(limits: limits, now: 0)
        state.handshakeCompleted(now: 0)
        let decision = state.received(Frame(Ping(), requestID: 1), now: 1)
        #expect(decision == .reject(ErrorMessage(code: .helloRequired, message: "the first frame must be Hello (type 0x0001)")))
    }

    @Test func aHelloWithTheWrongMagicIsRefused() {
        var state = ConnectionState(limits: limits, now: 0)
        state.handshakeCompleted(now: 0)
        guard case .reject(let error) = state.received(Frame(Hello(magic: Array("GET / HT".utf8), clientName: "x"), requestID: 1), now: 1)
        else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == .badMagic)
        #expect(error.fatal)
    }

    @Test func anUnsupportedVersionIsRefused() {
        for (offered, served) in [(3...4, 1...2), (1...1, 2...2)] as [(ClosedRange<UInt16>, ClosedRange<UInt16>)] {
            var limits = self.limits
            limits.protocolVersions = served
            var state = ConnectionState(limits: limits, now: 0)
            state.handshakeCompleted(now: 0)
            let hello = Frame(Hello(minVersion: offered.lowerBound, maxVersion: offered.upperBound, clientName: "x"), requestID: 1)
            guard case .reject(let error) = state.received(hello, now: 1) else {
                Issue.record("accepted \(offered) on a server of \(served)")
                continue
            }
            #expect(error.code == .unsupportedVersion)
        }
    }

    @Test func helloSettlesOnTheHighestVersionBothSpeak() {
        for (offered, served, chosen) in [(1...2, 1...2, 2), (1...1, 1...2, 1), (1...5, 1...2, 2), (2...2, 1...2, 2)]
            as [(ClosedRange<UInt16>, ClosedRange<UInt16>, UInt16)]
        {
            var limits = self.limits
            limits.protocolVersions = served
            var state = ConnectionState(limits: limits, now: 0)
            state.handshakeCompleted(now: 0)
            let hello = Frame(Hello(minVersion: offered.lowerBound, maxVersion: offered.upperBound, clientName: "x"), requestID: 1)
            guard case .welcome = state.received(hello, now: 1) else {
                Issue.record("refused \(offered)")
                continue
            }
            #expect(state.protocolVersion == chosen, "\(offered) on \(served)")
        }
    }

    @Test func theFrameLimitGrowsOnlyAfterLogin() {
        var state = ConnectionState(limits: limits, now: 0)
        #expect(state.frameLimit == ProtocolConstants.helloFrameLimit)
        state.handshakeCompleted(now: 0)
        _ = state.received(Frame(Hello(clientName: "t"), requestID: 1), now: 0)
        #expect(state.frameLimit == 100)
        #expect(Self.isDispatch(state.received(Frame(Login(username: "a", password: "b"), requestID: 2), now: 0)))
        #expect(!state.acceptsFrames, "an account request is a barrier")
        state.requestCompleted(requestID: 2, identity: .loggedIn(Self.user), now: 0)
        #expect(state.acceptsFrames)
        #expect(state.frameLimit == 10_000)
    }

    @Test func aFailedLoginLiftsTheBarrierWithoutLoggingIn() {
        var state = opened()
        _ = state.received(Frame(ListFeeds(), requestID: 2), now: 0)
        _ = state.received(Frame(Login(username: "a", password: "b"), requestID: 3), now: 0)
        state.requestCompleted(requestID: 2, identity: .unchanged, now: 0)
        #expect(state.awaitingIdentity, "an unrelated reply must not lift the barrier")
        state.requestCompleted(requestID: 3, identity: .unchanged, now: 0)
        #expect(!state.awaitingIdentity)
        #expect(state.user == nil)
    }

    @Test func tooManyRequestsInFlightIsFatal() {
        var state = opened()
        #expect(Self.isDispatch(state.received(Frame(WhoAmI(), requestID: 2), now: 0)))
        #expect(Self.isDispatch(state.received(Frame(WhoAmI(), requestID: 3), now: 0)))
        guard case .reject(let error) = state.received(Frame(WhoAmI(), requestID: 4), now: 0) else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == .tooManyInFlight)
        #expect(error.fatal)
    }

    @Test func unknownAndServerOnlyTypesAreRefused() {
        var state = opened()
        guard case .reject(let unknown) = state.received(Frame(type: 0x7777, requestID: 2, payload: []), now: 0) else {
            Issue.record()
            return
        }
        #expect(unknown.code == .unknownMessageType)
        var other = opened()
        guard case .reject(let reply) = other.received(Frame(Pong(), requestID: 2), now: 0) else {
            Issue.record()
            return
        }
        #expect(reply.code == .unexpectedMessage)
        var again = opened()
        guard case .reject(let hello) = again.received(Frame(Hello(clientName: "x"), requestID: 2), now: 0) else {
            Issue.record()
            return
        }
        #expect(hello.code == .unexpectedMessage)
    }

    @Test func theHandshakeDeadlineCoversTLSAndHello() {
        var state = ConnectionState(limits: limits, now: 0)
        #expect(state.expiredDeadline(now: 999) == nil)
        #expect(state.expiredDeadline(now: 1000)?.error.code == .timeout)
        state.handshakeCompleted(now: 500)
        #expect(state.expiredDeadline(now: 1000)?.error.code == .timeout, "Hello must also arrive before the deadline")
    }

    @Test func anIdleConnectionTimesOutButNotWhileARequestIsInFlight() {
        var state = opened(now: 0)
        state.requestCompleted(requestID: 9, identity: .loggedIn(Self.user), now: 0)
        #expect(state.expiredDeadline(now: 4999) == nil)
        #expect(state.expiredDeadline(now: 5000)?.error.code == .timeout)
        _ = state.received(Frame(ListFeeds(), requestID: 2), now: 5000)
        #expect(state.expiredDeadline(now: 20_000) == nil)
    }

    @Test func aFrameTricklingInPastItsDeadlineTimesOut() {
        var state = opened(now: 0)
        state.bytesArrived(now: 100, insideFrame: true)
        state.bytesArrived(now: 1500, insideFrame: true)
        #expect(state.expiredDeadline(now: 2099) == nil)
        let expired = state.expiredDeadline(now: 2100)
        #expect(expired?.error.code == .timeout, "trickling bytes must not extend the frame deadline")
        #expect(expired?.frame == true, "the error answers the frame")
    }

    @Test func aConnectionThatDoesNotLogInIsClosedWhateverItSends() {
        var state = opened(now: 0)
        _ = state.received(Frame(Ping(), requestID: 2), now: 2000)
        #expect(state.expiredDeadline(now: 2999) == nil)
        #expect(state.expiredDeadline(now: 3000)?.error.message == "not logged in within 3 s", "Pings do not extend the login deadline")
    }

    @Test func loggingOutStartsTheLoginDeadlineAgain() {
        var state = opened(now: 0)
        state.requestCompleted(requestID: 2, identity: .loggedIn(Self.user), now: 100)
        #expect(state.expiredDeadline(now: 4000) == nil)
        state.requestCompleted(requestID: 3, identity: .loggedOut, now: 4000)
        #expect(state.expiredDeadline(now: 6999) == nil)
        #expect(state.expiredDeadline(now: 7000)?.error.code == .timeout)
    }

    @Test func requestsWaitWhenRepliesWouldExceedTheBudget() {
        var state = opened()
        state.requestCompleted(requestID: 1, identity: .loggedIn(Self.user), now: 0)
        guard case .dispatch(let first) = state.received(Frame(WhoAmI(), requestID: 2), now: 0) else {
            Issue.record()
            return
        }
        #expect(first.bytes == ReplySize.smallEstimate)
        // Almost a budget of replies already queued: a second request does not fit beside the first.
        let queued = (1 << 20) - 2 * 1024
        #expect(state.received(Frame(WhoAmI(), requestID: 3), now: 0, queuedBytes: queued) == .hold)
        #expect(!state.mayRead(queuedBytes: queued, bufferedBytes: 0))
        state.requestCompleted(requestID: 2, identity: .unchanged, reservation: first, replyBytes: 50, now: 0)
        #expect(
            state.received(Frame(WhoAmI(), requestID: 3), now: 0, queuedBytes: queued) == .hold,
            "queued replies alone hold requests back until they drain")
        #expect(
            Self.isDispatch(state.received(Frame(WhoAmI(), requestID: 3), now: 0, queuedBytes: 0)),
            "a connection holding nothing may always start one request, so nothing deadlocks")
    }

    @Test func oneListingIsPreparedAtATimeAndTheNextIsEstimatedFromTheLast() {
        var state = opened()
        state.requestCompleted(requestID: 1, identity: .loggedIn(Self.user), now: 0)
        guard case .dispatch(let listing) = state.received(Frame(ListSnaps(feed: ""), requestID: 2), now: 0) else {
            Issue.record()
            return
        }
        #expect(listing.listing)
        #expect(state.received(Frame(ListFeeds(), requestID: 3), now: 0) == .hold)
        state.requestCompleted(requestID: 2, identity: .unchanged, reservation: listing, replyBytes: 20_000, now: 0)
        #expect(state.reservedBytes == 0)
        #expect(state.listingEstimate == 20_000)
    }

    @Test func anImageRequestReservesTheLargestImageReply() {
        var state = opened()
        state.requestCompleted(requestID: 1, identity: .loggedIn(Self.user), now: 0)
        guard case .dispatch(let open) = state.received(Frame(OpenSnap(snapID: 1), requestID: 2), now: 0) else {
            Issue.record()
            return
        }
        #expect(open.bytes == 8 + 10_000 + FrameHeader.size, "without a ceiling, the largest frame")
        guard
            case .dispatch(let photo) = state.received(
                Frame(GetPhoto(photoID: 1, variant: .thumbnail), requestID: 3), now: 0,
                imageReply: 120_000)
        else {
            Issue.record()
            return
        }
        #expect(photo.bytes == 9 + 120_000)
    }

    @Test func theImageCeilingOnlyGrows() {
        let ceiling = ImageCeiling(largestStoredImage: 100)
        ceiling.noteStored(50)
        #expect(ceiling.replyBytes == 100 + ImageCeiling.replyOverhead)
        ceiling.noteStored(5000)
        #expect(ceiling.replyBytes == 5000 + ImageCeiling.replyOverhead)
    }
}
