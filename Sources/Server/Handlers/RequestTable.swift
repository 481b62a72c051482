import CommandLineParsing
import Wire

/// Every request the server answers, one declaration each (like a router's route table): its
/// message and reply types, who may send it and, for an admin request, what the audit log
/// records of it (`AdminAudit`: an admin route cannot be declared without), where it runs,
/// whether it is a barrier, how large its reply can get, and its handler. Adding a request
/// touches the codec, this table and one handler. Hello is not here: it is the connection's own
/// (see `ConnectionState`).
enum RequestTable {
    static let routes: [RequestRoute] = [
        // Connection
        .inline(Ping.self, Pong.self, .anyone) { _, _, context in HandlerOutcome(Pong(), for: context) },
        .inline(Poll.self, PollResult.self, .user) { handler, request, context in handler.poll(request, context) },
        // Accounts
        .handled(Register.self, Authenticated.self, .anyone, on: .kdf, barrier: true) { try await $0.register($1, $2) },
        .handled(Login.self, Authenticated.self, .anyone, on: .kdf, barrier: true) { try await $0.login($1, $2) },
        .handled(Resume.self, Authenticated.self, .anyone, barrier: true) { try await $0.resume($1, $2) },
        .handled(Logout.self, Ok.self, .user, barrier: true) { handler, _, context in try await handler.logout(context) },
        .handled(WhoAmI.self, Authenticated.self, .user) { handler, _, context in try await handler.whoAmI(context) },
        .handled(ChangePassword.self, Ok.self, .user, on: .kdf) { try await $0.changePassword($1, $2) },
        .handled(LoginWithDevice.self, Authenticated.self, .anyone, on: .kdf, barrier: true) { try await $0.loginWithDevice($1, $2) },
        .handled(IssueDeviceToken.self, DeviceToken.self, .user) { handler, _, context in try await handler.issueDeviceToken(context) },
        // Feeds and snaps
        .handled(ListFeeds.self, Feeds.self, .user, replySize: .listing) { handler, _, context in try await handler.listFeeds(context) },
        .handled(ListSnaps.self, Snaps.self, .user, replySize: .listing) { try await $0.listSnaps($1, $2) },
        .handled(PostSnap.self, SnapPosted.self, .user) { try await $0.postSnap($1, $2) },
        .job(OpenSnap.self, SnapImage.self, .user, on: .storageWriter, replySize: .image) { try $0.openSnap($1, $2, $3) },
        .handled(GetSnapViews.self, SnapViews.self, .user, replySize: .listing) { try await $0.snapViews($1, $2) },
        // Administration
        .handled(AdminCreateFeed.self, Ok.self, .admin(.recorded { "feed \($0.name)" })) { try await $0.adminCreateFeed($1, $2) },
        .handled(AdminDeleteFeed.self, Ok.self, .admin(.recorded { "feed \($0.name)" })) { try await $0.adminDeleteFeed($1, $2) },
        .handled(AdminResetFeeds.self, Count.self, .admin(.recorded { $0.allFeeds ? "every feed" : "feed \($0.name)" })) { try await $0.adminResetFeeds($1, $2) },
        .handled(AdminDeleteSnap.self, Ok.self, .admin(.recorded { "snap \($0.snapID)" })) { try await $0.adminDeleteSnap($1, $2) },
        .handled(AdminRestoreView.self, Ok.self, .admin(.recorded { "snap \($0.snapID) for \($0.username)" })) { try await $0.adminRestoreView($1, $2) },
        .handled(AdminListUsers.self, Users.self, .admin(.readOnly), replySize: .listing) { handler, _, context in try await handler.adminListUsers(context) },
        .handled(AdminStats.self, Stats.self, .admin(.readOnly), replySize: .listing) { handler, _, context in try await handler.adminStats(context) },
        .handled(AdminUnlock.self, Count.self, .admin(.recorded { "user \($0.username)" })) { try await $0.adminUnlock($1, $2) },
        .handled(AdminUnlockAddress.self, Count.self, .admin(.recorded { "address \($0.address)" })) { try await $0.adminUnlockAddress($1, $2) },
        .handled(AdminAuditLog.self, AuditLog.self, .admin(.readOnly), replySize: .listing) { try await $0.adminAuditLog($1, $2) },
        .handled(AdminPurge.self, Count.self, .admin(.recorded(unlessDryRun: \.dryRun) { "snaps posted more than \(TimeSpan(milliseconds: $0.olderThan)) ago" })) { try await $0.adminPurge($1, $2) },
        .handled(AdminExportSnaps.self, ExportedSnaps.self, .admin(.exportListing), replySize: .listing) { try await $0.adminExportSnaps($1, $2) },
        .job(AdminViewSnap.self, SnapImage.self, .admin(.pictureUnlessExported), on: .storageReader, replySize: .image) { try $0.adminViewSnap($1, $2, $3) },
        .handled(AdminSetAdmin.self, Ok.self, .admin(.recorded { "user \($0.username) \($0.isAdmin ? "made admin" : "no longer admin")" })) { try await $0.adminSetAdmin($1, $2) },
        .handled(AdminResetPassword.self, Ok.self, .admin(.recorded { "user \($0.username)" }), on: .kdf) { try await $0.adminResetPassword($1, $2) },
        // Moderation
        .handled(ReportSnap.self, Ok.self, .user) { try await $0.reportSnap($1, $2) },
        .handled(UnsendSnap.self, Ok.self, .user) { try await $0.unsendSnap($1, $2) },
        .handled(AdminListReports.self, Reports.self, .admin(.readOnly), replySize: .listing) { handler, _, context in try await handler.adminListReports(context) },
        .handled(AdminResolveReport.self, Ok.self, .admin(.recorded {
            "snap \($0.snapID) \($0.resolution == .delete ? "deleted" : "dismissed")"
                + ($0.suspendFor > 0 ? ", poster suspended for \(TimeSpan(milliseconds: $0.suspendFor))" : "")
        })) { try await $0.adminResolveReport($1, $2) },
        .handled(AdminSuspend.self, Ok.self, .admin(.recorded { "user \($0.username) for \(TimeSpan(milliseconds: $0.duration)): \($0.reason)" })) { try await $0.adminSuspend($1, $2) },
        .handled(AdminUnsuspend.self, Ok.self, .admin(.recorded { "user \($0.username)" })) { try await $0.adminUnsuspend($1, $2) },
        .handled(AdminSetDisabled.self, Ok.self, .admin(.recorded { "user \($0.username) \($0.disabled ? "disabled" : "enabled")" })) { try await $0.adminSetDisabled($1, $2) },
        .handled(AdminRenameUser.self, Ok.self, .admin(.recorded { "user \($0.username) renamed \($0.newName)" })) { try await $0.adminRenameUser($1, $2) },
        .handled(AdminDeleteUser.self, Ok.self, .admin(.recorded { "user \($0.username)" })) { try await $0.adminDeleteUser($1, $2) },
        .handled(AdminListPending.self, PendingSnaps.self, .admin(.readOnly), replySize: .listing) { handler, _, context in try await handler.adminListPending(context) },
        .handled(AdminApproveSnap.self, Ok.self, .admin(.recorded {
            "snap \($0.snapID) \($0.approve ? "approved" : "rejected")" + ($0.approve || $0.reason.isEmpty ? "" : ": \($0.reason)")
        })) { try await $0.adminApproveSnap($1, $2) },
        // The roster
        .handled(AdminListRoster.self, Roster.self, .admin(.readOnly), replySize: .listing) { handler, _, context in try await handler.adminListRoster(context) },
        .handled(AdminRemoveRosterEntry.self, Ok.self, .admin(.recorded { "roster name \($0.name)" })) { try await $0.adminRemoveRosterEntry($1, $2) },
        // Pins, albums, photos and the map
        .handled(AddPin.self, PinResult.self, .user) { try await $0.addPin($1, $2) },
        .handled(ListPins.self, Pins.self, .user, replySize: .listing) { handler, _, context in try await handler.listPins(context) },
        .handled(DeletePin.self, Ok.self, .user) { try await $0.deletePin($1, $2) },
        .handled(GetAlbum.self, Album.self, .user, replySize: .listing) { try await $0.getAlbum($1, $2) },
        .handled(NewCollection.self, Album.self, .user, replySize: .listing) { try await $0.newCollection($1, $2) },
        .job(GetPhoto.self, PhotoImage.self, .user, on: .storageReader, replySize: .image) { try $0.sendPhoto($1, $2, $3) },
        .handled(DeletePhoto.self, Ok.self, .user) { try await $0.deletePhoto($1, $2) },
        .handled(RandomPin.self, RandomPinResult.self, .user) { handler, _, context in try await handler.randomPin(context) },
        .handled(GetMapState.self, MapState.self, .user) { handler, _, context in try await handler.getMapState(context) },
        .handled(SetMapState.self, MapState.self, .user) { try await $0.setMapState($1, $2) },
        // Favorite movies
        .handled(AddMovie.self, MovieResult.self, .user) { try await $0.addMovie($1, $2) },
        .handled(DeleteMovie.self, Ok.self, .user) { try await $0.deleteMovie($1, $2) },
        .handled(FindMovie.self, MovieResult.self, .user) { try await $0.findMovie($1, $2) },
        .handled(SetMovieSales.self, MovieResult.self, .user) { try await $0.setMovieSales($1, $2) },
        .handled(UpdateMovie.self, MovieResult.self, .user) { try await $0.updateMovie($1, $2) },
        .handled(ListMovies.self, Movies.self, .user, replySize: .listing) { handler, _, context in try await handler.listMovies(context) },
    ]

    /// The routes by message type number, for the lookup of every frame.
    private static let byType: [UInt16: RequestRoute] = Dictionary(uniqueKeysWithValues: routes.map { ($0.request.rawValue, $0) })

    /// The route of a request type; nil for Hello, replies and unknown numbers.
    static func route(_ type: UInt16) -> RequestRoute? { byType[type] }
}
