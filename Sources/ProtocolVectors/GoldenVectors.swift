import Crypto
import Wire

/// The golden vectors of docs/PROTOCOL.md: each hex example of the document is the frame of one
/// case here, by name. `ProtocolDocumentTests` holds the document to them, byte for byte, in every
/// version served; `scripts/print-vectors.sh` prints them in the document's layout, for a new message.
package enum GoldenVectors {
    package static let time: Int64 = 1_764_417_600_000
    package static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]

    /// Every documented vector: the core ones below plus each feature area's.
    package static func cases() -> [(String, Frame)] {
        coreCases() + AccountVectors.cases() + AdminVectors.cases() + PinVectors.cases()
            + MovieVectors.cases() + ClassVectors.cases() + Version3Vectors.cases() + version1Cases()
    }

    /// The snaps the vectors show: one listed, one opened, one posted.
    package static func sampleSnaps() -> (listed: SnapInfo, opened: SnapInfo, posted: SnapInfo) {
        let snap = SnapInfo(
            id: 7, feed: "Memes", poster: "bob", postedAt: time, expiresAt: time + 7 * 86_400_000,
            state: .unread, imageKind: .png, byteCount: 115_471, width: 256, height: 256)
        var opened = snap
        opened.state = .read
        opened.byteCount = 4
        opened.width = 1
        opened.height = 1
        var posted = opened
        posted.id = 8
        posted.feed = "Random"
        posted.poster = "ada"
        posted.state = .sent
        return (snap, opened, posted)
    }

    /// The messages whose version-1 layout differs (Appendix A), written in version 1.
    static func version1Cases() -> [(String, Frame)] {
        let (snap, opened, posted) = sampleSnaps()
        return [
            ("v1-hello", Frame(Hello(minVersion: 1, maxVersion: 1, clientName: "demo"), requestID: 1, version: 1)),
            (
                "v1-welcome",
                Frame(
                    Welcome(
                        version: 1, serverName: "snapshare-server", maxFrameBytes: 5_308_416, maxFrameBytesBeforeLogin: 16_384,
                        maxRequestsInFlight: 64, maxImageBytes: 5_242_880, maxImageDimension: 8192,
                        maxImagePixels: 40_000_000, idleTimeoutSeconds: 300, serverTime: time), requestID: 1, version: 1)
            ),
            ("v1-snaps", Frame(Snaps(version: 42, snaps: [snap]), requestID: 4, version: 1)),
            ("v1-snap-posted", Frame(SnapPosted(snap: posted), requestID: 8, version: 1)),
            ("v1-snap-image", Frame(SnapImage(snap: opened, sha256: SHA256.hash(png), image: png), requestID: 6, version: 1)),
        ]
    }

    static func coreCases() -> [(String, Frame)] {
        let (snap, opened, posted) = sampleSnaps()
        var openedTwice = posted
        openedTwice.openedCount = 2
        return [
            ("hello", Frame(Hello(minVersion: 1, maxVersion: 2, clientName: "demo"), requestID: 1)),
            (
                "welcome",
                Frame(
                    Welcome(
                        version: 2, serverName: "snapshare-server", maxFrameBytes: 5_308_416, maxFrameBytesBeforeLogin: 16_384,
                        maxRequestsInFlight: 64, maxImageBytes: 5_242_880, maxImageDimension: 8192,
                        maxImagePixels: 16_777_216, idleTimeoutSeconds: 300, serverTime: time), requestID: 1)
            ),
            ("error-already-viewed", Frame(ErrorMessage(code: .alreadyViewed, message: "already viewed"), requestID: 7)),
            ("error-fatal-hello-required", Frame(ErrorMessage(code: .helloRequired, message: "send Hello first"), requestID: 1)),
            ("error-fatal-idle-timeout", Frame(ErrorMessage(code: .timeout, message: "idle for 300 s"), requestID: 0)),
            (
                "error-unsupported-version",
                Frame(
                    ErrorMessage(
                        code: .unsupportedVersion,
                        message: "this server speaks protocol versions 1-2; "
                            + "the client speaks version 3: this client is newer than this server"), requestID: 1)
            ),
            ("ping", Frame(Ping(), requestID: 2)),
            ("pong", Frame(Pong(), requestID: 2)),
            ("register", Frame(Register(username: "ada", password: "correct horse", classCode: "CS193"), requestID: 2)),
            ("login", Frame(Login(username: "ada", password: "correct horse"), requestID: 2)),
            ("authenticated", Frame(Authenticated(token: "tok", username: "ada", isAdmin: false, createdAt: time), requestID: 2)),
            ("resume", Frame(Resume(token: "tok"), requestID: 3)),
            ("list-feeds", Frame(ListFeeds(), requestID: 4)),
            ("feeds", Frame(Feeds(feeds: [FeedInfo(id: 1, name: "Memes", snapCount: 5, unreadCount: 2)]), requestID: 4)),
            ("list-snaps", Frame(ListSnaps(feed: "Memes"), requestID: 4)),
            ("snaps", Frame(Snaps(version: 42, snaps: [snap]), requestID: 4)),
            ("poll", Frame(Poll(knownVersion: 42), requestID: 5)),
            ("poll-result", Frame(PollResult(version: 43, changed: true), requestID: 5)),
            ("post-snap", Frame(PostSnap(feed: "Random", image: png), requestID: 8)),
            ("snap-posted", Frame(SnapPosted(snap: posted), requestID: 8)),
            ("get-snap-views", Frame(GetSnapViews(snapID: 8), requestID: 11)),
            (
                "snap-views",
                Frame(
                    SnapViews(
                        snap: openedTwice,
                        viewers: [
                            SnapViewer(username: "bob", viewedAt: time + 60_000),
                            SnapViewer(username: "carol", viewedAt: time + 120_000),
                        ]),
                    requestID: 11)
            ),
            ("open-snap", Frame(OpenSnap(snapID: 7), requestID: 6)),
            ("snap-image", Frame(SnapImage(snap: opened, sha256: SHA256.hash(png), image: png), requestID: 6)),
            ("admin-reset-feeds-all", Frame(AdminResetFeeds(allFeeds: true, name: ""), requestID: 9)),
            ("count", Frame(Count(count: 3), requestID: 9)),
            ("admin-restore-view", Frame(AdminRestoreView(snapID: 7, username: "ada"), requestID: 10)),
        ]
    }

    /// A case as the document writes it: `<!-- vector: NAME -->`, then the hex in a fenced block,
    /// the 12 header bytes on the first line and 16 bytes a line after.
    package static func documentBlock(name: String, frame: Frame) -> String {
        let bytes = frame.encoded().map { hex($0) }
        var lines = [bytes.prefix(12).joined(separator: " ")]
        var rest = bytes.dropFirst(12)
        while !rest.isEmpty {
            lines.append(rest.prefix(16).joined(separator: " "))
            rest = rest.dropFirst(16)
        }
        return "<!-- vector: \(name) -->\n```hex\n" + lines.joined(separator: "\n") + "\n```\n"
    }

    /// A byte as two upper-case hex digits.
    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
