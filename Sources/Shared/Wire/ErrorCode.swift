/// A stable numeric error code carried in an Error frame. Codes never change meaning; new ones
/// may be added. Classes: 1xx protocol (the server closes the connection after sending),
/// 2xx accounts, 3xx requests, 5xx server. See `docs/PROTOCOL.md`.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    // Protocol errors: always fatal.
    public static let malformedFrame = Self(rawValue: 100)
    public static let frameTooLarge = Self(rawValue: 101)
    public static let helloRequired = Self(rawValue: 102)
    public static let badMagic = Self(rawValue: 103)
    public static let unsupportedVersion = Self(rawValue: 104)
    public static let unknownMessageType = Self(rawValue: 105)
    public static let tooManyInFlight = Self(rawValue: 106)
    public static let timeout = Self(rawValue: 107)
    public static let shuttingDown = Self(rawValue: 108)
    public static let unexpectedMessage = Self(rawValue: 109)
    public static let tooManyConnections = Self(rawValue: 110)
    // Accounts.
    public static let authRequired = Self(rawValue: 200)
    public static let badCredentials = Self(rawValue: 201)
    public static let usernameTaken = Self(rawValue: 202)
    public static let badClassCode = Self(rawValue: 203)
    public static let forbidden = Self(rawValue: 204)
    public static let rateLimited = Self(rawValue: 205)
    public static let sessionInvalid = Self(rawValue: 206)
    public static let passwordChangeRequired = Self(rawValue: 207)
    /// The account behind a live connection was deleted or disabled by an admin (added in version 4).
    public static let accountClosed = Self(rawValue: 208)
    // Requests.
    public static let invalidArgument = Self(rawValue: 300)
    public static let notFound = Self(rawValue: 301)
    public static let alreadyViewed = Self(rawValue: 302)
    public static let expired = Self(rawValue: 303)
    public static let ownSnap = Self(rawValue: 304)
    public static let alreadyExists = Self(rawValue: 305)
    public static let imageTooLarge = Self(rawValue: 306)
    public static let unsupportedImage = Self(rawValue: 307)
    public static let imageDimensionsTooLarge = Self(rawValue: 308)
    public static let albumBusy = Self(rawValue: 309)
    public static let quotaExceeded = Self(rawValue: 310)
    // Server.
    public static let internalError = Self(rawValue: 500)
    public static let storageFailure = Self(rawValue: 501)

    /// The constant name used in `docs/PROTOCOL.md`, e.g. `ALREADY_VIEWED`.
    public var name: String {
        switch self {
        case .malformedFrame: "MALFORMED_FRAME"
        case .frameTooLarge: "FRAME_TOO_LARGE"
        case .helloRequired: "HELLO_REQUIRED"
        case .badMagic: "BAD_MAGIC"
        case .unsupportedVersion: "UNSUPPORTED_VERSION"
        case .unknownMessageType: "UNKNOWN_MESSAGE_TYPE"
        case .tooManyInFlight: "TOO_MANY_IN_FLIGHT"
        case .timeout: "TIMEOUT"
        case .shuttingDown: "SHUTTING_DOWN"
        case .unexpectedMessage: "UNEXPECTED_MESSAGE"
        case .tooManyConnections: "TOO_MANY_CONNECTIONS"
        case .authRequired: "AUTH_REQUIRED"
        case .badCredentials: "BAD_CREDENTIALS"
        case .usernameTaken: "USERNAME_TAKEN"
        case .badClassCode: "BAD_CLASS_CODE"
        case .forbidden: "FORBIDDEN"
        case .rateLimited: "RATE_LIMITED"
        case .sessionInvalid: "SESSION_INVALID"
        case .passwordChangeRequired: "PASSWORD_CHANGE_REQUIRED"
        case .accountClosed: "ACCOUNT_CLOSED"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .notFound: "NOT_FOUND"
        case .alreadyViewed: "ALREADY_VIEWED"
        case .expired: "EXPIRED"
        case .ownSnap: "OWN_SNAP"
        case .alreadyExists: "ALREADY_EXISTS"
        case .imageTooLarge: "IMAGE_TOO_LARGE"
        case .unsupportedImage: "UNSUPPORTED_IMAGE"
        case .imageDimensionsTooLarge: "IMAGE_DIMENSIONS_TOO_LARGE"
        case .albumBusy: "ALBUM_BUSY"
        case .quotaExceeded: "QUOTA_EXCEEDED"
        case .internalError: "INTERNAL_ERROR"
        case .storageFailure: "STORAGE_FAILURE"
        default: "ERROR_\(rawValue)"
        }
    }

    /// Codes added after a protocol version, with the code that version's clients know for the
    /// same case. Version 1 defined no rule for unknown codes, so its clients are never sent one;
    /// from version 2 on a client treats an unknown code by its hundred (docs/PROTOCOL.md, 7).
    static let introduced: [ErrorCode: (version: UInt16, before: ErrorCode)] = [
        .quotaExceeded: (2, .invalidArgument),
        .passwordChangeRequired: (2, .forbidden),
        .accountClosed: (4, .sessionInvalid),
    ]

    /// The code a connection speaking `version` is sent for this one.
    public func spoken(in version: UInt16) -> ErrorCode {
        guard let (since, before) = Self.introduced[self], version < since else { return self }
        return before.spoken(in: version)
    }

    /// Protocol errors end the connection.
    public var isProtocolError: Bool { (100..<200).contains(rawValue) }

    public var description: String { "\(name) (\(rawValue))" }
}
