import CommandLineParsing
import Wire

/// Every request the server answers, one declaration each (like a router's route table): its
/// message and reply types, who may send it and, for an admin request, what the audit log
/// records of it (`RouteAccess`, with `AdminAudit`: an admin route cannot be declared without),
/// where it runs, whether it is a barrier, how large its reply can get, and its handler among
/// `Handlers`, called as `(handlers, request, caller, context)`: the caller is what the route
/// admitted (nothing for `.anyone`, the `AuthenticatedUser` for `.user`, a `Member` of the
/// connection's class for `.member` and `.staff(role)`, the `Admin` for `.site`), so a handler
/// never checks rights itself, and one written for the staff cannot be called from a user's route.
/// Adding a request touches the codec, this table and one handler.
/// Hello is not here: it is the connection's own (see `ConnectionState`).
enum RequestTable {
    static let routes: [RequestRoute] = [
        // Connection
        .inline(Ping.self, Pong.self, .anyone) { _, _, _, context in HandlerOutcome(Pong(), for: context) },
        .inline(Poll.self, PollResult.self, .user) { $0.snaps.poll($1, $2, $3) },
        // Accounts
        .handled(Register.self, Authenticated.self, .anyone, on: .kdf, barrier: true) { try await $0.accounts.register($1, $3) },
        .handled(Login.self, Authenticated.self, .anyone, on: .kdf, barrier: true) { try await $0.accounts.login($1, $3) },
        .handled(Resume.self, Authenticated.self, .anyone, barrier: true) { try await $0.accounts.resume($1, $3) },
        .handled(Logout.self, Ok.self, .user, barrier: true) { try await $0.accounts.logout($2, $3) },
        .handled(WhoAmI.self, Authenticated.self, .user) { try await $0.accounts.whoAmI($2, $3) },
        .handled(ChangePassword.self, Ok.self, .user, on: .kdf) { try await $0.accounts.changePassword($1, $2, $3) },
        .handled(LoginWithDevice.self, Authenticated.self, .anyone, on: .kdf, barrier: true) {
            try await $0.accounts.loginWithDevice($1, $3)
        },
        .handled(IssueDeviceToken.self, DeviceToken.self, .user) { try await $0.accounts.issueDeviceToken($2, $3) },
        // Feeds and snaps
        .handled(ListFeeds.self, Feeds.self, .member, replySize: .listing) { try await $0.snaps.listFeeds($2, $3) },
        .handled(ListSnaps.self, Snaps.self, .member, replySize: .listing) { try await $0.snaps.listSnaps($1, $2, $3) },
        .handled(PostSnap.self, SnapPosted.self, .member) { try await $0.posting.postSnap($1, $2, $3) },
        .job(OpenSnap.self, SnapImage.self, .member, on: .storageWriter, replySize: .image) { try $0.images.openSnap($1, $2, $3, $4) },
        .handled(GetSnapViews.self, SnapViews.self, .member, replySize: .listing) { try await $0.snaps.snapViews($1, $2, $3) },
        // Administration
        .handled(AdminCreateFeed.self, Ok.self, .staff(.instructor, .recorded { "feed \($0.name)" })) {
            try await $0.feedAdmin.createFeed($1, $2, $3)
        },
        .handled(AdminDeleteFeed.self, Ok.self, .staff(.instructor, .recorded { "feed \($0.name)" })) {
            try await $0.feedAdmin.deleteFeed($1, $2, $3)
        },
        .handled(AdminResetFeeds.self, Count.self, .staff(.instructor, .recorded { $0.allFeeds ? "every feed" : "feed \($0.name)" })) {
            try await $0.feedAdmin.resetFeeds($1, $2, $3)
        },
        .handled(AdminDeleteSnap.self, Ok.self, .staff(.ta, .recorded { "snap \($0.snapID)" })) {
            try await $0.feedAdmin.deleteSnap($1, $2, $3)
        },
        .handled(AdminRestoreView.self, Ok.self, .staff(.instructor, .recorded { "snap \($0.snapID) for \($0.username)" })) {
            try await $0.feedAdmin.restoreView($1, $2, $3)
        },
        .handled(AdminListUsers.self, Users.self, .staff(.ta, .readOnly), replySize: .listing) {
            try await $0.accountAdmin.listUsers($2, $3)
        },
        .handled(AdminStats.self, Stats.self, .staff(.ta, .readOnly), replySize: .listing) { try await $0.oversight.stats($2, $3) },
        .handled(AdminUnlock.self, Count.self, .staff(.instructor, .recorded { "user \($0.username)" })) {
            try await $0.accountAdmin.unlock($1, $2, $3)
        },
        .handled(AdminUnlockAddress.self, Count.self, .site(.recorded { "address \($0.address)" })) {
            try await $0.accountAdmin.unlockAddress($1, $2, $3)
        },
        .handled(AdminAuditLog.self, AuditLog.self, .staff(.instructor, .readOnly), replySize: .listing) {
            try await $0.oversight.auditLog($1, $2, $3)
        },
        .handled(
            AdminPurge.self, Count.self,
            .staff(.instructor, .recorded(unlessDryRun: \.dryRun) { "snaps posted more than \(TimeSpan(milliseconds: $0.olderThan)) ago" })
        ) { try await $0.classData.purge($1, $2, $3) },
        .handled(AdminExportSnaps.self, ExportedSnaps.self, .staff(.instructor, .exportListing), replySize: .listing) {
            try await $0.classData.exportSnaps($1, $2, $3)
        },
        .job(AdminViewSnap.self, SnapImage.self, .staff(.ta, .pictureUnlessExported), on: .storageReader, replySize: .image) {
            try $0.images.viewSnap($1, $2, $3, $4)
        },
        .handled(AdminSetAdmin.self, Ok.self, .site(.recorded { "user \($0.username) \($0.isAdmin ? "made admin" : "no longer admin")" })) {
            try await $0.accountAdmin.setAdmin($1, $2, $3)
        },
        .handled(AdminResetPassword.self, Ok.self, .staff(.instructor, .recorded { "user \($0.username)" }), on: .kdf) {
            try await $0.accountAdmin.resetPassword($1, $2, $3)
        },
        // Moderation
        .handled(ReportSnap.self, Ok.self, .member) { try await $0.moderation.reportSnap($1, $2, $3) },
        .handled(UnsendSnap.self, Ok.self, .member) { try await $0.moderation.unsendSnap($1, $2, $3) },
        .handled(AdminListReports.self, Reports.self, .staff(.ta, .readOnly), replySize: .listing) {
            try await $0.moderation.listReports($2, $3)
        },
        .handled(
            AdminResolveReport.self, Ok.self,
            .staff(
                .ta,
                .recorded {
                    "snap \($0.snapID) \($0.resolution == .delete ? "deleted" : "dismissed")"
                        + ($0.suspendFor > 0 ? ", poster suspended for \(TimeSpan(milliseconds: $0.suspendFor))" : "")
                })
        ) { try await $0.moderation.resolveReport($1, $2, $3) },
        .handled(
            AdminSuspend.self, Ok.self,
            .staff(.ta, .recorded { "user \($0.username) for \(TimeSpan(milliseconds: $0.duration)): \($0.reason)" })
        ) { try await $0.moderation.suspend($1, $2, $3) },
        .handled(AdminUnsuspend.self, Ok.self, .staff(.ta, .recorded { "user \($0.username)" })) {
            try await $0.moderation.unsuspend($1, $2, $3)
        },
        .handled(
            AdminSetDisabled.self, Ok.self, .staff(.instructor, .recorded { "user \($0.username) \($0.disabled ? "disabled" : "enabled")" })
        ) {
            try await $0.accountAdmin.setDisabled($1, $2, $3)
        },
        .handled(AdminRenameUser.self, Ok.self, .staff(.instructor, .recorded { "user \($0.username) renamed \($0.newName)" })) {
            try await $0.accountAdmin.renameUser($1, $2, $3)
        },
        .handled(AdminDeleteUser.self, Ok.self, .staff(.instructor, .recorded { "user \($0.username)" })) {
            try await $0.accountAdmin.deleteUser($1, $2, $3)
        },
        .handled(AdminListPending.self, PendingSnaps.self, .staff(.ta, .readOnly), replySize: .listing) {
            try await $0.moderation.listPending($2, $3)
        },
        .handled(
            AdminApproveSnap.self, Ok.self,
            .staff(
                .ta,
                .recorded {
                    "snap \($0.snapID) \($0.approve ? "approved" : "rejected")" + ($0.approve || $0.reason.isEmpty ? "" : ": \($0.reason)")
                })
        ) { try await $0.moderation.approveSnap($1, $2, $3) },
        // The roster
        .handled(AdminListRoster.self, Roster.self, .staff(.ta, .readOnly), replySize: .listing) { try await $0.roster.listRoster($2, $3) },
        .handled(AdminRemoveRosterEntry.self, Ok.self, .staff(.instructor, .recorded { "roster name \($0.name)" })) {
            try await $0.roster.removeRosterEntry($1, $2, $3)
        },
        // Classes
        .handled(ListClasses.self, Classes.self, .user, replySize: .listing) { try await $0.classes.listClasses($2, $3) },
        .handled(UseClass.self, ClassChosen.self, .user, barrier: true) { try await $0.classes.useClass($1, $2, $3) },
        .handled(JoinClass.self, ClassChosen.self, .user, barrier: true) { try await $0.accounts.joinClass($1, $2, $3) },
        .handled(AdminListMembers.self, Members.self, .staff(.ta, .readOnly), replySize: .listing) {
            try await $0.classes.listMembers($2, $3)
        },
        .handled(AdminSetRole.self, Ok.self, .staff(.instructor, .recorded { "user \($0.username) \($0.role.name)" })) {
            try await $0.classes.setRole($1, $2, $3)
        },
        .handled(AdminRemoveMember.self, Ok.self, .staff(.instructor, .recorded { "user \($0.username)" })) {
            try await $0.classes.removeMember($1, $2, $3)
        },
        // Pins, albums, photos and the map
        .handled(AddPin.self, PinResult.self, .user) { try await $0.pins.addPin($1, $2, $3) },
        .handled(ListPins.self, Pins.self, .user, replySize: .listing) { try await $0.pins.listPins($2, $3) },
        .handled(DeletePin.self, Ok.self, .user) { try await $0.pins.deletePin($1, $2, $3) },
        .handled(GetAlbum.self, Album.self, .user, replySize: .listing) { try await $0.pins.getAlbum($1, $2, $3) },
        .handled(NewCollection.self, Album.self, .user, replySize: .listing) { try await $0.pins.newCollection($1, $2, $3) },
        .job(GetPhoto.self, PhotoImage.self, .user, on: .storageReader, replySize: .image) { try $0.images.sendPhoto($1, $2, $3, $4) },
        .handled(DeletePhoto.self, Ok.self, .user) { try await $0.pins.deletePhoto($1, $2, $3) },
        .handled(RandomPin.self, RandomPinResult.self, .user) { try await $0.pins.randomPin($2, $3) },
        .handled(GetMapState.self, MapState.self, .user) { try await $0.pins.getMapState($2, $3) },
        .handled(SetMapState.self, MapState.self, .user) { try await $0.pins.setMapState($1, $2, $3) },
        // Favorite movies
        .handled(AddMovie.self, MovieResult.self, .user) { try await $0.movies.addMovie($1, $2, $3) },
        .handled(DeleteMovie.self, Ok.self, .user) { try await $0.movies.deleteMovie($1, $2, $3) },
        .handled(FindMovie.self, MovieResult.self, .user) { try await $0.movies.findMovie($1, $2, $3) },
        .handled(SetMovieSales.self, MovieResult.self, .user) { try await $0.movies.setMovieSales($1, $2, $3) },
        .handled(UpdateMovie.self, MovieResult.self, .user) { try await $0.movies.updateMovie($1, $2, $3) },
        .handled(ListMovies.self, Movies.self, .user, replySize: .listing) { try await $0.movies.listMovies($2, $3) },
    ]

    /// The routes by message type number, for the lookup of every frame.
    private static let byType: [UInt16: RequestRoute] = Dictionary(uniqueKeysWithValues: routes.map { ($0.request.rawValue, $0) })

    /// The route of a request type; nil for Hello, replies and unknown numbers.
    static func route(_ type: UInt16) -> RequestRoute? { byType[type] }
}
