import Testing

@testable import Crypto
@testable import Wire

@Suite struct MessageCodecTests {
    static let snap = SnapInfo(
        id: 9, feed: "Dog Spots", poster: "bob", postedAt: 1_700_000_000_000, expiresAt: 1_700_600_000_000,
        state: .sent, imageKind: .jpeg, byteCount: 1234, width: 640, height: 480)

    func roundTrip<M: WireMessage & Equatable>(_ message: M) throws {
        let frame = Frame(message, requestID: 77)
        var decoder = FrameDecoder(maxPayload: 1 << 20)
        decoder.append(frame.encoded())
        let decoded = try #require(try decoder.nextFrame())
        #expect(decoded.requestID == 77)
        #expect(try decoded.decode(M.self) == message)
    }

    @Test("an image reply's head followed by its image is byte for byte the frame its message encodes to")
    func imageFrameHeadsPlusImagesMatchTheCodec() throws {
        let image = (0..<100_003).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let digest = SHA256.hash(image)
        let snap = SnapImage(snap: Self.snap, sha256: digest, image: image)
        #expect(
            SnapImage.frameHead(requestID: 5, snap: Self.snap, sha256: digest, imageByteCount: image.count) + image
                == Frame(snap, requestID: 5).encoded())
        let info = PhotoInfo(
            id: 40, pinID: 3, position: 0, state: .ready, title: "Kerrytown", tags: "annarbor cat",
            place: "Ann Arbor, Michigan, United States", latitude: 42.25, longitude: -83.75,
            width: 160, height: 120, byteCount: UInt32(image.count))
        for variant in [PhotoVariant.full, .thumbnail] {
            let photo = PhotoImage(photo: info, variant: variant, sha256: digest, image: image)
            #expect(
                PhotoImage.frameHead(requestID: 6, photo: info, variant: variant, sha256: digest, imageByteCount: image.count) + image
                    == Frame(photo, requestID: 6).encoded())
        }
        // An empty image: the head is the whole frame.
        #expect(
            SnapImage.frameHead(requestID: 7, snap: Self.snap, sha256: digest, imageByteCount: 0)
                == Frame(SnapImage(snap: Self.snap, sha256: digest, image: []), requestID: 7).encoded())
    }

    @Test func everyMessageSurvivesARoundTrip() throws {
        try roundTrip(Hello(clientName: "tester"))
        try roundTrip(
            Welcome(
                version: 1, serverName: "s", maxFrameBytes: 5, maxFrameBytesBeforeLogin: 4, maxRequestsInFlight: 3,
                maxImageBytes: 2, maxImageDimension: 1, maxImagePixels: 9, idleTimeoutSeconds: 8, serverTime: -5))
        try roundTrip(ErrorMessage(code: .alreadyViewed, message: "nope"))
        try roundTrip(Ping())
        try roundTrip(Pong())
        try roundTrip(Ok())
        try roundTrip(Register(username: "ada", password: "pw-pw-pw-pw", classCode: "X"))
        try roundTrip(Login(username: "ada", password: "pw"))
        try roundTrip(Resume(token: "t"))
        try roundTrip(Authenticated(token: "t", username: "ada", isAdmin: true, createdAt: 3))
        try roundTrip(Logout())
        try roundTrip(WhoAmI())
        try roundTrip(ListFeeds())
        try roundTrip(Feeds(feeds: [FeedInfo(id: 1, name: "Memes", snapCount: 3, unreadCount: 2)]))
        try roundTrip(ListSnaps(feed: "Random"))
        try roundTrip(Snaps(version: 99, snaps: [Self.snap, Self.snap]))
        try roundTrip(Poll(knownVersion: 4))
        try roundTrip(PollResult(version: 5, changed: true))
        try roundTrip(PostSnap(feed: "Memes", image: [1, 2, 3]))
        try roundTrip(SnapPosted(snap: Self.snap))
        try roundTrip(OpenSnap(snapID: 9))
        try roundTrip(SnapImage(snap: Self.snap, sha256: Array(repeating: 1, count: 32), image: [9, 9]))
        try roundTrip(AdminCreateFeed(name: "New"))
        try roundTrip(AdminDeleteFeed(name: "Old"))
        try roundTrip(AdminResetFeeds(allFeeds: false, name: "Memes"))
        try roundTrip(Count(count: 12))
        try roundTrip(AdminDeleteSnap(snapID: 3))
        try roundTrip(AdminRestoreView(snapID: 3, username: "ada"))
        try roundTrip(AdminListUsers())
        try roundTrip(Users(users: [UserInfo(username: "ada", isAdmin: false, createdAt: 1, postCount: 2, viewCount: 3)]))
        try roundTrip(AdminStats())
        try roundTrip(Stats(entries: [StatEntry(name: "users", value: 4)]))
    }

    @Test func trailingBytesAreMalformed() {
        var payload = ByteWriter()
        OpenSnap(snapID: 1).encode(into: &payload)
        payload.write(UInt8(0))
        let frame = Frame(type: MessageType.openSnap.rawValue, requestID: 1, payload: payload.bytes)
        #expect(throws: WireError.self) { try frame.decode(OpenSnap.self) }
    }

    @Test func invalidUTF8IsMalformed() {
        let frame = Frame(type: MessageType.listSnaps.rawValue, requestID: 1, payload: [0, 2, 0xC3, 0x28])
        #expect(throws: WireError.self) { try frame.decode(ListSnaps.self) }
    }

    @Test func aForgedArrayCountIsRejectedWithoutAllocating() {
        // Snaps with version 0 and a count of 4 billion, but no elements.
        let frame = Frame(type: MessageType.snaps.rawValue, requestID: 1, payload: [0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: WireError.self) { try frame.decode(Snaps.self) }
    }

    @Test func aBooleanOtherThanZeroOrOneIsMalformed() {
        let frame = Frame(type: MessageType.pollResult.rawValue, requestID: 1, payload: [0, 0, 0, 0, 0, 0, 0, 1, 2])
        #expect(throws: WireError.self) { try frame.decode(PollResult.self) }
    }

    @Test func messageTypesAreUniqueAndKnown() {
        let raws = MessageType.all.map(\.rawValue)
        #expect(Set(raws).count == raws.count)
        for type in MessageType.all { #expect(MessageType(rawValue: type.rawValue) == type) }
        #expect(MessageType(rawValue: 0x7777) == nil)
    }

    @Test func errorMessagesAreTruncatedOnACharacterBoundary() {
        let long = String(repeating: "é", count: 2000)
        let message = ErrorMessage(code: .internalError, message: long)
        #expect(message.message.utf8.count <= FieldLimits.errorMessage)
        #expect(message.message.allSatisfy { $0 == "é" })
    }
}
