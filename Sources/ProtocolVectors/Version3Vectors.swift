import Crypto
import Wire

/// The messages whose version-3 layout differs from version 4 (docs/PROTOCOL.md, section 7), written
/// in version 3: the same values as the version-4 vectors of the same name without `v3-`, where
/// version 3 has room for them.
enum Version3Vectors {
    static func cases() -> [(String, Frame)] {
        let (snap, opened, posted) = GoldenVectors.sampleSnaps()
        var openedTwice = posted
        openedTwice.openedCount = 2
        var pendingSnap = posted
        pendingSnap.state = .pending
        let png = GoldenVectors.png
        return [
            ("v3-snaps", Frame(Snaps(version: 42, snaps: [snap]), requestID: 4, version: 3)),
            ("v3-snap-posted", Frame(SnapPosted(snap: posted), requestID: 8, version: 3)),
            (
                "v3-snap-views",
                Frame(
                    SnapViews(
                        snap: openedTwice,
                        viewers: [
                            SnapViewer(username: "bob", viewedAt: GoldenVectors.time + 60_000),
                            SnapViewer(username: "carol", viewedAt: GoldenVectors.time + 120_000),
                        ]),
                    requestID: 11, version: 3)
            ),
            ("v3-snap-image", Frame(SnapImage(snap: opened, sha256: SHA256.hash(png), image: png), requestID: 6, version: 3)),
            ("v3-snap-posted-pending", Frame(SnapPosted(snap: pendingSnap), requestID: 75, version: 3)),
            (
                "v3-users",
                Frame(
                    Users(users: [
                        UserInfo(
                            username: "ada", isAdmin: true, createdAt: GoldenVectors.time, postCount: 3,
                            viewCount: 12)
                    ]), requestID: 54, version: 3)
            ),
            ("v3-admin-export-snaps", Frame(AdminExportSnaps(afterID: 0, limit: 200), requestID: 62, version: 3)),
            ("v3-exported-snaps", Frame(ExportedSnaps(total: 1, snaps: [AdminVectors.exportedSnap()]), requestID: 62, version: 3)),
            ("v3-pending-snaps", Frame(PendingSnaps(snaps: [pendingWithoutMark()]), requestID: 73, version: 3)),
            ("v3-admin-approve-snap", Frame(AdminApproveSnap(snapID: 8, approve: true), requestID: 74, version: 3)),
        ]
    }

    /// The queue's snap as version 3 reads it back: it has no mark.
    static func pendingWithoutMark() -> ExportedSnap {
        var snap = AdminVectors.pendingExportedSnap()
        snap.awaitingApproval = false
        return snap
    }
}
