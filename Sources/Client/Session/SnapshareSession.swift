import Crypto
import Foundation
import Posix
import TLS
import Wire

/// The client's logic, apart from any presentation: one connection to the server, logged in
/// or not, with typed calls for every feature. The CLI prints what it returns; a full-screen
/// UI can drive the same calls.
package final class SnapshareSession {
    package let settings: ConnectionSettings
    package let state: ClientState
    package private(set) var connection: ServerConnection
    package private(set) var welcome: Welcome
    package private(set) var identity: Authenticated?
    /// The class chosen on this session (UseClass, JoinClass), chosen again on a new connection.
    package internal(set) var chosenClass: ClassInfo?

    /// Connects, verifies the server (CA, or the pinned fingerprint), and says Hello.
    /// `notice` hears what the user should know, such as a fingerprint trusted on first use.
    package init(settings: ConnectionSettings, state: ClientState, notice: (SessionNotice) -> Void) throws(ClientError) {
        self.settings = settings
        self.state = state
        (connection, welcome) = try Self.open(settings: settings, state: state, notice: notice)
    }

    /// A connection that verified the server and said Hello.
    private static func open(
        settings: ConnectionSettings, state: ClientState,
        notice: (SessionNotice) -> Void
    ) throws(ClientError) -> (ServerConnection, Welcome) {
        let context: TLSContext
        if let caFile = settings.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            let reason = FileManager.default.fileExists(atPath: caFile) ? "permission denied" : "no such file"
            throw settings.unreadableCA(reason)
        }
        do {
            context = try TLSContext.client(trustRootsFile: settings.caFile)
        } catch {
            throw settings.unreadableCA("\(error)")
        }
        var firstUse: SessionNotice?
        let connection = try ServerConnection(
            host: settings.host, port: settings.port, context: context,
            timeout: settings.timeoutSeconds
        ) { (connection: ServerConnection) throws(ClientError) in
            firstUse = try Self.checkPin(of: connection, settings: settings, state: state)
        }
        if let firstUse { notice(firstUse) }
        return (connection, try connection.hello())
    }

    deinit { connection.close() }

    /// What the TLS layer accepted, checked against what this machine trusted before. A trust
    /// file or the system's roots vouched for the server: nothing to pin. Otherwise the chain's
    /// anchor (the class CA, or a lone leaf) must be the one pinned for this server, and is
    /// pinned when there is none yet: the notice to give then is returned. A pin left by an older
    /// snapshare, which pinned the leaf, moves to the anchor when that leaf is the one shown.
    private static func checkPin(
        of connection: ServerConnection, settings: ConnectionSettings,
        state: ClientState
    ) throws(ClientError) -> SessionNotice? {
        let serverKey = settings.serverKey
        switch connection.peerTrust {
        case .trustFile?, .system?:
            return nil
        case .pinnable(let anchor, let anchorIsLeaf)?:
            let hex = SHA256.hex(anchor)
            let check: FingerprintCheck
            do {
                check = try state.check(fingerprint: hex, formerly: SHA256.hex(connection.peerFingerprint), for: serverKey)
            } catch {
                throw ClientError(.local, error.description)
            }
            switch check {
            case .matches: return nil
            case .trustedOnFirstUse: return .trustedOnFirstUse(serverKey: serverKey, fingerprintHex: hex, isAuthority: !anchorIsLeaf)
            case .changed(let trusted):
                throw ClientError.certificate(
                    "the certificate of \(serverKey) has CHANGED since you first trusted it",
                    remedy: .checkChangedCertificate(serverKey: serverKey, trustedHex: trusted, presentedHex: hex))
            }
        case nil:
            throw ClientError(.tls, "the TLS layer gave no reason to trust \(serverKey)")
        }
    }

    // MARK: Accounts

    /// Resumes the session saved for this server: under this name, or under another name for
    /// the same server (the same certificate, such as `localhost` and `127.0.0.1`). An auth
    /// error when there is none, saying where the user is logged in instead.
    package func resumeSavedSession() throws(ClientError) -> Authenticated {
        let (key, saved) = try savedSession()
        do {
            let identity: Authenticated = try request(Resume(token: saved.token))
            self.identity = identity
            sessionKey = key
            return identity
        } catch let error where error.serverCode == .sessionInvalid {
            try? state.removeSession(for: key)
            throw ClientError(.auth, "your session has ended", serverCode: .sessionInvalid, remedy: .logIn(username: saved.username))
        }
    }

    /// The server name of the session file in use (this server's, or another name of it).
    private(set) var sessionKey: String?

    private func savedSession() throws(ClientError) -> (String, StoredSession) {
        let here = settings.serverKey
        let all: [(server: String, session: StoredSession)]
        do {
            if let saved = try state.session(for: here) { return (here, saved) }
            all = try state.sessions()
        } catch {
            throw ClientError(.local, error.description)
        }
        let fingerprint = SHA256.hex(connection.peerFingerprint)
        if let same = all.first(where: { $0.session.serverFingerprint == fingerprint }) { return (same.server, same.session) }
        let elsewhere = all.map { "\($0.session.username) on \($0.server)" }
        let detail =
            elsewhere.isEmpty
            ? ""
            : " (logged in as \(elsewhere.joined(separator: ", ")): a different server, "
                + "or a login from before servers were recognised by certificate)"
        throw ClientError(.auth, "not logged in to \(here)\(detail)", remedy: .logIn(username: nil))
    }

    package func register(username: String, password: String, classCode: String) throws(ClientError) -> Authenticated {
        let identity: Authenticated = try request(Register(username: username, password: password, classCode: classCode))
        try remember(identity)
        rememberDevice(of: identity)
        return identity
    }

    /// Logs in with a password, presenting this machine's device token for the user when it has
    /// one (the server then judges the login by this device's own failure budget, so a class
    /// behind one address cannot lock it out).
    package func login(username: String, password: String) throws(ClientError) -> Authenticated {
        let device = supportsDevices ? (try? state.deviceToken(for: settings.serverKey, username: username)) ?? nil : nil
        let identity: Authenticated =
            if let device {
                try request(LoginWithDevice(username: username, password: password, deviceToken: device))
            } else {
                try request(Login(username: username, password: password))
            }
        try remember(identity)
        rememberDevice(of: identity)
        return identity
    }

    /// Whether the server's protocol version knows device tokens.
    private var supportsDevices: Bool { MessageType.loginWithDevice.exists(in: connection.protocolVersion) }

    /// After a password login: a fresh device token for next time (the server keeps a user's
    /// recent devices). Best effort: a login never fails for want of one.
    private func rememberDevice(of identity: Authenticated) {
        guard supportsDevices, let issued: DeviceToken = try? request(IssueDeviceToken()) else { return }
        try? state.saveDeviceToken(issued.token, for: settings.serverKey, username: identity.username)
    }

    private func remember(_ identity: Authenticated) throws(ClientError) {
        self.identity = identity
        do {
            try state.saveSession(
                StoredSession(
                    token: identity.token, username: identity.username,
                    serverFingerprint: SHA256.hex(connection.peerFingerprint)), for: settings.serverKey)
            sessionKey = settings.serverKey
            try state.saveConfig(server: settings.serverKey, ca: settings.caFile)
        } catch {
            throw ClientError(.local, "logged in, but could not save the session: \(error.description)")
        }
    }

    /// Ends the session on the server and forgets it locally.
    package func logout() throws(ClientError) {
        let _: Ok = try request(Logout())
        try? state.removeSession(for: sessionKey ?? settings.serverKey)
        identity = nil
    }

    package func whoAmI() throws(ClientError) -> Authenticated { try request(WhoAmI()) }

    /// Changes this user's password; the server ends every other session of the user.
    package func changePassword(from old: String, to new: String) throws(ClientError) {
        let _: Ok = try request(ChangePassword(oldPassword: old, newPassword: new))
    }

    // MARK: Snaps

    package func feeds() throws(ClientError) -> [FeedInfo] { (try request(ListFeeds()) as Feeds).feeds }

    package func snaps(feed: String?) throws(ClientError) -> Snaps { try request(ListSnaps(feed: feed ?? "")) }

    package func poll(knownVersion: UInt64) throws(ClientError) -> PollResult { try request(Poll(knownVersion: knownVersion)) }
    /// A sign of life from the server (Ping, answered by Pong).
    package func ping() throws(ClientError) { let _: Pong = try request(Ping()) }

    /// A snap and who opened it (its poster and admins only).
    package func snapViews(_ id: UInt64) throws(ClientError) -> SnapViews { try request(GetSnapViews(snapID: id)) }

    package func post(feed: String, image: [UInt8], progress: ((Int, Int) -> Void)? = nil) throws(ClientError) -> SnapInfo {
        (try request(PostSnap(feed: feed, image: image), progress: progress) as SnapPosted).snap
    }

    /// Opens a snap: this spends the one view. The bytes are checked against the SHA-256 the
    /// server sent before they are returned.
    /// Reports a snap to the admins, with why.
    package func report(snapID: UInt64, reason: String) throws(ClientError) {
        let _: Ok = try request(ReportSnap(snapID: snapID, reason: reason))
    }
    /// Takes back one's own snap.
    package func unsend(snapID: UInt64) throws(ClientError) { let _: Ok = try request(UnsendSnap(snapID: snapID)) }

    package func open(snapID: UInt64) throws(ClientError) -> SnapImage {
        try verified(try request(OpenSnap(snapID: snapID)), snapID)
    }

    private func verified(_ image: SnapImage, _ snapID: UInt64) throws(ClientError) -> SnapImage {
        guard SHA256.hash(image.image) == image.sha256 else {
            throw ClientError(.integrity, "snap \(snapID) arrived damaged (SHA-256 mismatch); not shown")
        }
        return image
    }

    // MARK: Administration

    package func createFeed(_ name: String) throws(ClientError) { let _: Ok = try request(AdminCreateFeed(name: name)) }
    package func deleteFeed(_ name: String) throws(ClientError) { let _: Ok = try request(AdminDeleteFeed(name: name)) }
    package func resetFeed(_ name: String) throws(ClientError) -> UInt64 {
        (try request(AdminResetFeeds(allFeeds: false, name: name)) as Count).count
    }
    package func resetAllFeeds() throws(ClientError) -> UInt64 { (try request(AdminResetFeeds(allFeeds: true, name: "")) as Count).count }
    package func deleteSnap(_ id: UInt64) throws(ClientError) { let _: Ok = try request(AdminDeleteSnap(snapID: id)) }
    package func restoreView(snapID: UInt64, username: String) throws(ClientError) {
        let _: Ok = try request(AdminRestoreView(snapID: snapID, username: username))
    }
    package func users() throws(ClientError) -> [UserInfo] { (try request(AdminListUsers()) as Users).users }
    /// How many snaps were posted more than `olderThan` milliseconds ago, deleting them unless `dryRun`.
    package func purge(olderThan: Int64, dryRun: Bool) throws(ClientError) -> UInt64 {
        (try request(AdminPurge(olderThan: olderThan, dryRun: dryRun)) as Count).count
    }
    /// The snaps awaiting approval, the longest waiting first.
    package func pending() throws(ClientError) -> [ExportedSnap] { (try request(AdminListPending()) as PendingSnaps).snaps }
    /// Approves a snap awaiting approval, or rejects it, telling its poster `reason` (protocol 4).
    package func approve(snapID: UInt64, _ approve: Bool, reason: String = "") throws(ClientError) {
        if !reason.isEmpty { try requireVersion(4, for: "a rejection's reason (reject without --reason)") }
        let _: Ok = try request(AdminApproveSnap(snapID: snapID, approve: approve, reason: reason))
    }
    /// The class's roster, each name with the account that claimed it (protocol 4).
    package func roster() throws(ClientError) -> [RosterMember] { (try request(AdminListRoster()) as Roster).members }
    /// Takes a name off the roster (protocol 4).
    func removeFromRoster(_ name: String) throws(ClientError) { let _: Ok = try request(AdminRemoveRosterEntry(name: name)) }
    /// The open reports, the longest waiting first.
    package func reports() throws(ClientError) -> [ReportedSnap] { (try request(AdminListReports()) as Reports).snaps }
    package func resolveReport(snapID: UInt64, _ resolution: ReportResolution, suspendFor: Int64 = 0) throws(ClientError) {
        let _: Ok = try request(AdminResolveReport(snapID: snapID, resolution: resolution, suspendFor: suspendFor))
    }
    package func suspend(_ username: String, for duration: Int64, reason: String) throws(ClientError) {
        let _: Ok = try request(AdminSuspend(username: username, duration: duration, reason: reason))
    }
    package func unsuspend(_ username: String) throws(ClientError) { let _: Ok = try request(AdminUnsuspend(username: username)) }
    package func setDisabled(_ username: String, _ disabled: Bool) throws(ClientError) {
        let _: Ok = try request(AdminSetDisabled(username: username, disabled: disabled))
    }
    package func rename(_ username: String, to newName: String) throws(ClientError) {
        let _: Ok = try request(AdminRenameUser(username: username, newName: newName))
    }
    package func deleteUser(_ username: String) throws(ClientError) { let _: Ok = try request(AdminDeleteUser(username: username)) }
    /// One page of every stored snap after `afterID` (those awaiting approval only with
    /// `includePending`, protocol 4), lowest id first, and how many there are in all.
    package func exportSnaps(after afterID: UInt64, includePending: Bool = false) throws(ClientError) -> ExportedSnaps {
        if includePending { try requireVersion(4, for: "snaps awaiting approval in an export") }
        return try request(AdminExportSnaps(afterID: afterID, limit: 200, includePending: includePending))
    }
    /// Any snap's picture, as an admin, without spending a view.
    package func adminView(_ snapID: UInt64) throws(ClientError) -> SnapImage {
        try verified(try request(AdminViewSnap(snapID: snapID)), snapID)
    }
    package func stats() throws(ClientError) -> [StatEntry] { (try request(AdminStats()) as Stats).entries }
    /// The audit log from `since` (Unix milliseconds), oldest first; the server sends at most 5,000.
    package func auditLog(since: Int64) throws(ClientError) -> [AuditRecord] {
        (try request(AdminAuditLog(since: since, limit: 5_000)) as AuditLog).entries
    }
    /// Lifts the login throttle of `username`; returns how many throttle entries held failures.
    package func unlock(_ username: String) throws(ClientError) -> UInt64 { (try request(AdminUnlock(username: username)) as Count).count }
    /// Lifts the password and class-code budgets of one IP address; how many held failures.
    package func unlock(address: String) throws(ClientError) -> UInt64 {
        (try request(AdminUnlockAddress(address: address)) as Count).count
    }
    package func setAdmin(_ username: String, isAdmin: Bool) throws(ClientError) {
        let _: Ok = try request(AdminSetAdmin(username: username, isAdmin: isAdmin))
    }
    package func resetPassword(of username: String, to password: String) throws(ClientError) {
        let _: Ok = try request(AdminResetPassword(username: username, newPassword: password))
    }

    /// The protocol version this session's connection settled on.
    package var protocolVersion: UInt16 { connection.protocolVersion }

    /// Refuses, before anything is sent, what the server's protocol version cannot carry.
    func requireVersion(_ version: UInt16, for what: String) throws(ClientError) {
        guard connection.protocolVersion >= version else {
            throw ClientError(
                .incompatible,
                "the server at \(settings.serverKey) speaks protocol version \(connection.protocolVersion), which has no "
                    + "room for \(what); ask its operator to upgrade snapshare-server")
        }
    }

    /// One request, one typed reply. A request that changes nothing on the server (a listing,
    /// a Poll, a photo) is sent once more over a new connection, the login resumed, when the
    /// connection was lost under it: behind a load balancer the next connection reaches a live
    /// instance. Anything else fails with the connection error, so nothing is done twice.
    package func request<Request: WireMessage, Reply: WireMessage>(
        _ message: Request, progress: ((Int, Int) -> Void)? = nil
    ) throws(ClientError) -> Reply {
        // A connection already seen lost, or idle so long the server has closed it (or is about
        // to), is replaced before anything is sent: the request is a new one, not a repeat, so
        // this holds for posts and opens too.
        if connectionLost || idleTooLong { try reconnect() }
        defer { lastExchange = MonotonicClock.milliseconds() }
        do {
            return try connection.expect(try connection.roundTrip(message, progress: progress))
        } catch  where error.isConnectionLoss && Self.safeToRepeat.contains(Request.type) {
            try reconnect()
            do {
                return try connection.expect(try connection.roundTrip(message, progress: progress))
            } catch  where error.isConnectionLoss {
                connectionLost = true
                throw error
            }
        } catch  where error.isConnectionLoss {
            connectionLost = true
            throw error
        }
    }

    /// Set when a request that may not be repeated lost its connection; the next request
    /// starts on a new one.
    private var connectionLost = false

    /// When the last request was answered (or failed); the connection's idle time counts from it.
    private var lastExchange = MonotonicClock.milliseconds()

    /// The connection has been quiet for nearly the Welcome's idle timeout or longer: the
    /// server closes it then, so it is not worth sending on (a quarter of the timeout, at most
    /// 2 s, is kept as margin for the request on its way).
    private var idleTooLong: Bool {
        let timeout = Int64(welcome.idleTimeoutSeconds) * 1000
        guard timeout > 0 else { return false }
        return MonotonicClock.milliseconds() - lastExchange >= timeout - min(2000, timeout / 4)
    }

    /// Requests that read and change nothing (an open spends a view; a post adds a snap).
    static let safeToRepeat: Set<MessageType> = [
        .ping, .whoAmI, .listFeeds, .listSnaps, .poll, .getSnapViews, .adminListUsers,
        .adminStats, .adminListRoster, .listPins, .getAlbum, .getPhoto, .getMapState, .findMovie, .listMovies,
    ]

    /// How many times a lost connection was replaced by a new one (see `request`).
    package private(set) var reconnections = 0

    /// A new connection to the same server (verified the same way), with the login resumed.
    private func reconnect() throws(ClientError) {
        // Lost until the new connection has its login back.
        connectionLost = true
        let fresh = try Self.open(settings: settings, state: state) { _ in }
        reconnections += 1
        connection.close()
        (connection, welcome) = fresh
        if let identity {
            do {
                self.identity = try connection.expect(try connection.roundTrip(Resume(token: identity.token))) as Authenticated
                // A new connection acts in the account's default class: the one chosen comes back too.
                if let chosen = chosenClass?.handle {
                    let _: ClassChosen = try connection.expect(try connection.roundTrip(UseClass(handle: chosen)))
                }
            } catch  where !error.isConnectionLoss {
                // The connection is good, the login is not (it expired or was ended elsewhere).
                self.identity = nil
                connectionLost = false
                throw error
            }
        }
        connectionLost = false
    }
}
