import Wire

/// Golden vectors of docs/PROTOCOL.md for administration (5.4) and moderation (5.7).
enum AdminVectors {
    static func cases() -> [(String, Frame)] {
        let time = GoldenVectors.time
        var pendingSnap = GoldenVectors.sampleSnaps().posted
        pendingSnap.id = 8
        pendingSnap.state = .pending
        return [
            ("admin-create-feed", Frame(AdminCreateFeed(name: "Lecture 5"), requestID: 50)),
            ("admin-delete-feed", Frame(AdminDeleteFeed(name: "Lecture 5"), requestID: 51)),
            ("admin-reset-feeds-one", Frame(AdminResetFeeds(allFeeds: false, name: "Memes"), requestID: 52)),
            ("admin-delete-snap", Frame(AdminDeleteSnap(snapID: 7), requestID: 53)),
            ("admin-list-users", Frame(AdminListUsers(), requestID: 54)),
            ("users", Frame(Users(users: [user()]), requestID: 54)),
            ("admin-stats", Frame(AdminStats(), requestID: 55)),
            (
                "stats",
                Frame(
                    Stats(entries: [StatEntry(name: "users", value: 31), StatEntry(name: "snaps_live", value: 204)]),
                    requestID: 55)
            ),
            ("admin-unlock", Frame(AdminUnlock(username: "bob"), requestID: 56)),
            ("admin-unlock-address", Frame(AdminUnlockAddress(address: "203.0.113.7"), requestID: 59)),
            ("admin-set-admin", Frame(AdminSetAdmin(username: "bob", isAdmin: false), requestID: 57)),
            ("admin-reset-password", Frame(AdminResetPassword(username: "bob", newPassword: "new password"), requestID: 58)),
            ("admin-audit-log", Frame(AdminAuditLog(since: 0, limit: 100), requestID: 60)),
            (
                "audit-log",
                Frame(
                    AuditLog(entries: [
                        AuditRecord(
                            at: 1_700_000_000_000, actor: "ada", action: "AdminDeleteSnap",
                            target: "snap 7", result: "ok")
                    ]), requestID: 60)
            ),
            ("admin-purge", Frame(AdminPurge(olderThan: 30 * 86_400_000, dryRun: true), requestID: 61)),
            ("admin-export-snaps", Frame(AdminExportSnaps(afterID: 0, limit: 200, includePending: true), requestID: 62)),
            ("exported-snaps", Frame(ExportedSnaps(total: 1, snaps: [exportedSnap(reportCount: 1)]), requestID: 62)),
            ("admin-view-snap", Frame(AdminViewSnap(snapID: 7), requestID: 63)),
            ("report-snap", Frame(ReportSnap(snapID: 7, reason: "rude"), requestID: 64)),
            ("unsend-snap", Frame(UnsendSnap(snapID: 7), requestID: 65)),
            ("admin-list-reports", Frame(AdminListReports(), requestID: 66)),
            (
                "reports",
                Frame(
                    Reports(snaps: [
                        ReportedSnap(
                            snapID: 7, feed: "Memes", poster: "bob", postedAt: 1_764_417_600_000,
                            expiresAt: 1_764_417_600_000 + 7 * 86_400_000,
                            pictureKept: true, reports: [SnapReport(reporter: "ada", reason: "rude", reportedAt: 1_764_417_660_000)])
                    ]), requestID: 66)
            ),
            ("admin-resolve-report", Frame(AdminResolveReport(snapID: 7, resolution: .delete, suspendFor: 7 * 86_400_000), requestID: 67)),
            ("admin-suspend", Frame(AdminSuspend(username: "bob", duration: 86_400_000, reason: "spam"), requestID: 68)),
            ("admin-unsuspend", Frame(AdminUnsuspend(username: "bob"), requestID: 69)),
            ("admin-set-disabled", Frame(AdminSetDisabled(username: "bob", disabled: true), requestID: 70)),
            ("admin-rename-user", Frame(AdminRenameUser(username: "bob", newName: "rob"), requestID: 71)),
            ("admin-delete-user", Frame(AdminDeleteUser(username: "bob"), requestID: 72)),
            ("admin-list-pending", Frame(AdminListPending(), requestID: 73)),
            ("pending-snaps", Frame(PendingSnaps(snaps: [pendingExportedSnap()]), requestID: 73)),
            ("admin-approve-snap", Frame(AdminApproveSnap(snapID: 8, approve: true), requestID: 74)),
            ("admin-reject-snap", Frame(AdminApproveSnap(snapID: 8, approve: false, reason: "off topic"), requestID: 76)),
            ("snap-posted-pending", Frame(SnapPosted(snap: pendingSnap), requestID: 75)),
            ("v2-snap-posted-pending", Frame(SnapPosted(snap: pendingSnap), requestID: 75, version: 2)),
            ("snaps-rejected", Frame(Snaps(version: 44, snaps: [rejectedSnap()]), requestID: 77)),
            ("admin-list-roster", Frame(AdminListRoster(), requestID: 78)),
            (
                "roster",
                Frame(
                    Roster(members: [
                        RosterMember(
                            name: "dave", displayName: "Dave Diaz", isAdmin: false, addedAt: time, account: "david", status: .signedIn,
                            lastSignIn: time + 60_000),
                        RosterMember(
                            name: "erin", displayName: "Erin Ek", isAdmin: false, addedAt: time, account: "", status: .notRegistered,
                            lastSignIn: 0),
                    ]), requestID: 78)
            ),
            ("admin-remove-roster-entry", Frame(AdminRemoveRosterEntry(name: "erin"), requestID: 79)),
            (
                "error-account-closed",
                Frame(ErrorMessage(code: .accountClosed, fatal: true, message: "your account was deleted"), requestID: 0)
            ),
        ]
    }

    /// The account `users` shows: roster name, display name and the rest of version 4.
    static func user() -> UserInfo {
        var user = UserInfo(username: "ada", isAdmin: true, createdAt: GoldenVectors.time, postCount: 3, viewCount: 12)
        user.displayName = "Ada Lovelace"
        user.rosterName = "ada"
        user.lastSignIn = GoldenVectors.time + 60_000
        return user
    }

    /// The snap an export lists (reported `reportCount` times).
    static func exportedSnap(reportCount: UInt32 = 0) -> ExportedSnap {
        ExportedSnap(
            id: 7, feed: "Memes", poster: "bob", postedAt: 1_764_417_600_000, expiresAt: 1_764_417_600_000 + 7 * 86_400_000,
            imageKind: .png, byteCount: 4, width: 1, height: 1, pictureKept: true,
            viewers: [SnapViewer(username: "ada", viewedAt: 1_764_417_660_000)], reportCount: reportCount)
    }

    /// The snap the approval queue lists.
    static func pendingExportedSnap() -> ExportedSnap {
        ExportedSnap(
            id: 8, feed: "Memes", poster: "bob", postedAt: 1_764_417_600_000, expiresAt: 1_764_417_600_000 + 7 * 86_400_000,
            imageKind: .png, byteCount: 4, width: 1, height: 1, pictureKept: true, viewers: [], awaitingApproval: true)
    }

    /// A rejected snap as its poster's listing shows it.
    static func rejectedSnap() -> SnapInfo {
        var snap = GoldenVectors.sampleSnaps().posted
        snap.id = 9
        snap.state = .rejected
        snap.note = "off topic"
        return snap
    }
}
