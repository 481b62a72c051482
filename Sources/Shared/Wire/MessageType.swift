/// Every message type of every protocol version served. The numbers are stable; see
/// `docs/PROTOCOL.md`.
public struct MessageType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public let name: StaticString
    /// True for types a client sends; a client sending a server type is a protocol error.
    public let isRequest: Bool
    /// The protocol version that brought the type: in an earlier version it does not exist (a
    /// peer sending it is sending an unknown type, as that version defines).
    public let since: UInt16

    public init?(rawValue: UInt16) {
        guard let known = Self.all.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    private init(_ rawValue: UInt16, _ name: StaticString, request: Bool, since: UInt16 = 1) {
        self.rawValue = rawValue
        self.name = name
        self.isRequest = request
        self.since = since
    }

    /// The type with this number in protocol `version`, or nil when that version has none.
    public init?(rawValue: UInt16, version: UInt16) {
        guard let known = Self(rawValue: rawValue), known.exists(in: version) else { return nil }
        self = known
    }

    /// Whether protocol `version` has this type.
    public func exists(in version: UInt16) -> Bool { since <= version }

    public static func == (a: Self, b: Self) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { "\(name) (0x\(String(rawValue, radix: 16, uppercase: true)))" }

    // Connection
    public static let hello = Self(0x0001, "Hello", request: true)
    public static let welcome = Self(0x0002, "Welcome", request: false)
    public static let error = Self(0x0003, "Error", request: false)
    public static let ping = Self(0x0004, "Ping", request: true)
    public static let pong = Self(0x0005, "Pong", request: false)
    public static let ok = Self(0x0006, "Ok", request: false)
    // Accounts
    public static let register = Self(0x0010, "Register", request: true)
    public static let login = Self(0x0011, "Login", request: true)
    public static let resume = Self(0x0012, "Resume", request: true)
    public static let authenticated = Self(0x0013, "Authenticated", request: false)
    public static let logout = Self(0x0014, "Logout", request: true)
    public static let whoAmI = Self(0x0015, "WhoAmI", request: true)
    public static let changePassword = Self(0x0016, "ChangePassword", request: true, since: 2)
    public static let loginWithDevice = Self(0x0017, "LoginWithDevice", request: true, since: 2)
    public static let issueDeviceToken = Self(0x0018, "IssueDeviceToken", request: true, since: 2)
    public static let deviceToken = Self(0x0019, "DeviceToken", request: false, since: 2)
    // Feeds and snaps
    public static let listFeeds = Self(0x0020, "ListFeeds", request: true)
    public static let feeds = Self(0x0021, "Feeds", request: false)
    public static let listSnaps = Self(0x0022, "ListSnaps", request: true)
    public static let snaps = Self(0x0023, "Snaps", request: false)
    public static let poll = Self(0x0024, "Poll", request: true)
    public static let pollResult = Self(0x0025, "PollResult", request: false)
    public static let postSnap = Self(0x0026, "PostSnap", request: true)
    public static let snapPosted = Self(0x0027, "SnapPosted", request: false)
    public static let openSnap = Self(0x0028, "OpenSnap", request: true)
    public static let snapImage = Self(0x0029, "SnapImage", request: false)
    public static let getSnapViews = Self(0x002A, "GetSnapViews", request: true, since: 2)
    public static let snapViews = Self(0x002B, "SnapViews", request: false, since: 2)
    // Administration
    public static let adminCreateFeed = Self(0x0040, "AdminCreateFeed", request: true)
    public static let adminDeleteFeed = Self(0x0041, "AdminDeleteFeed", request: true)
    public static let adminResetFeeds = Self(0x0042, "AdminResetFeeds", request: true)
    public static let count = Self(0x0043, "Count", request: false)
    public static let adminDeleteSnap = Self(0x0044, "AdminDeleteSnap", request: true)
    public static let adminRestoreView = Self(0x0045, "AdminRestoreView", request: true)
    public static let adminListUsers = Self(0x0046, "AdminListUsers", request: true)
    public static let users = Self(0x0047, "Users", request: false)
    public static let adminStats = Self(0x0048, "AdminStats", request: true)
    public static let stats = Self(0x0049, "Stats", request: false)
    public static let adminUnlock = Self(0x004A, "AdminUnlock", request: true, since: 2)
    public static let adminSetAdmin = Self(0x004B, "AdminSetAdmin", request: true, since: 2)
    public static let adminResetPassword = Self(0x004C, "AdminResetPassword", request: true, since: 2)
    public static let adminUnlockAddress = Self(0x004D, "AdminUnlockAddress", request: true, since: 2)
    public static let adminAuditLog = Self(0x004E, "AdminAuditLog", request: true, since: 2)
    public static let auditLog = Self(0x004F, "AuditLog", request: false, since: 2)
    public static let adminPurge = Self(0x0050, "AdminPurge", request: true, since: 2)
    public static let adminExportSnaps = Self(0x0051, "AdminExportSnaps", request: true, since: 2)
    public static let exportedSnaps = Self(0x0052, "ExportedSnaps", request: false, since: 2)
    public static let adminViewSnap = Self(0x0053, "AdminViewSnap", request: true, since: 2)

    // Pins, albums, photos and the saved map
    public static let addPin = Self(0x0060, "AddPin", request: true)
    public static let pin = Self(0x0061, "PinResult", request: false)
    public static let listPins = Self(0x0062, "ListPins", request: true)
    public static let pins = Self(0x0063, "Pins", request: false)
    public static let deletePin = Self(0x0064, "DeletePin", request: true)
    public static let getAlbum = Self(0x0065, "GetAlbum", request: true)
    public static let album = Self(0x0066, "Album", request: false)
    public static let newCollection = Self(0x0067, "NewCollection", request: true)
    public static let getPhoto = Self(0x0068, "GetPhoto", request: true)
    public static let photoImage = Self(0x0069, "PhotoImage", request: false)
    public static let deletePhoto = Self(0x006A, "DeletePhoto", request: true)
    public static let randomPin = Self(0x006B, "RandomPin", request: true)
    public static let randomPinResult = Self(0x006C, "RandomPinResult", request: false)
    public static let getMapState = Self(0x006D, "GetMapState", request: true)
    public static let mapState = Self(0x006E, "MapState", request: false)
    public static let setMapState = Self(0x006F, "SetMapState", request: true)
    // Favorite movies
    public static let addMovie = Self(0x0080, "AddMovie", request: true)
    public static let movie = Self(0x0081, "MovieResult", request: false)
    public static let deleteMovie = Self(0x0082, "DeleteMovie", request: true)
    public static let findMovie = Self(0x0083, "FindMovie", request: true)
    public static let setMovieSales = Self(0x0084, "SetMovieSales", request: true)
    public static let listMovies = Self(0x0085, "ListMovies", request: true)
    public static let movies = Self(0x0086, "Movies", request: false)
    public static let updateMovie = Self(0x0087, "UpdateMovie", request: true, since: 2)
    // Moderation
    public static let reportSnap = Self(0x0090, "ReportSnap", request: true, since: 2)
    public static let unsendSnap = Self(0x0091, "UnsendSnap", request: true, since: 2)
    public static let adminListReports = Self(0x0092, "AdminListReports", request: true, since: 2)
    public static let reports = Self(0x0093, "Reports", request: false, since: 2)
    public static let adminResolveReport = Self(0x0094, "AdminResolveReport", request: true, since: 2)
    public static let adminSuspend = Self(0x0095, "AdminSuspend", request: true, since: 2)
    public static let adminUnsuspend = Self(0x0096, "AdminUnsuspend", request: true, since: 2)
    public static let adminSetDisabled = Self(0x0097, "AdminSetDisabled", request: true, since: 2)
    public static let adminRenameUser = Self(0x0098, "AdminRenameUser", request: true, since: 2)
    public static let adminDeleteUser = Self(0x0099, "AdminDeleteUser", request: true, since: 2)
    public static let adminListPending = Self(0x009A, "AdminListPending", request: true, since: 2)
    public static let pendingSnaps = Self(0x009B, "PendingSnaps", request: false, since: 2)
    public static let adminApproveSnap = Self(0x009C, "AdminApproveSnap", request: true, since: 2)
    public static let adminListRoster = Self(0x009D, "AdminListRoster", request: true, since: 4)
    public static let roster = Self(0x009E, "Roster", request: false, since: 4)
    public static let adminRemoveRosterEntry = Self(0x009F, "AdminRemoveRosterEntry", request: true, since: 4)
    // Classes
    public static let listClasses = Self(0x00A0, "ListClasses", request: true, since: 5)
    public static let classes = Self(0x00A1, "Classes", request: false, since: 5)
    public static let useClass = Self(0x00A2, "UseClass", request: true, since: 5)
    public static let joinClass = Self(0x00A3, "JoinClass", request: true, since: 5)
    public static let classChosen = Self(0x00A4, "ClassChosen", request: false, since: 5)
    public static let adminListMembers = Self(0x00A5, "AdminListMembers", request: true, since: 5)
    public static let members = Self(0x00A6, "Members", request: false, since: 5)
    public static let adminSetRole = Self(0x00A7, "AdminSetRole", request: true, since: 5)
    public static let adminRemoveMember = Self(0x00A8, "AdminRemoveMember", request: true, since: 5)

    public static let all: [MessageType] = [
        hello, welcome, error, ping, pong, ok,
        register, login, resume, authenticated, logout, whoAmI, changePassword, loginWithDevice, issueDeviceToken, deviceToken,
        listFeeds, feeds, listSnaps, snaps, poll, pollResult, postSnap, snapPosted, openSnap, snapImage, getSnapViews, snapViews,
        adminCreateFeed, adminDeleteFeed, adminResetFeeds, count, adminDeleteSnap, adminRestoreView,
        adminListUsers, users, adminStats, stats, adminUnlock, adminSetAdmin, adminResetPassword, adminUnlockAddress,
        adminAuditLog, auditLog, adminPurge, adminExportSnaps, exportedSnaps, adminViewSnap,
        addPin, pin, listPins, pins, deletePin, getAlbum, album, newCollection, getPhoto, photoImage, deletePhoto,
        randomPin, randomPinResult, getMapState, mapState, setMapState,
        addMovie, movie, deleteMovie, findMovie, setMovieSales, listMovies, movies, updateMovie,
        reportSnap, unsendSnap, adminListReports, reports, adminResolveReport, adminSuspend, adminUnsuspend,
        adminSetDisabled, adminRenameUser, adminDeleteUser, adminListPending, pendingSnaps, adminApproveSnap,
        adminListRoster, roster, adminRemoveRosterEntry,
        listClasses, classes, useClass, joinClass, classChosen, adminListMembers, members, adminSetRole, adminRemoveMember,
    ]
}
