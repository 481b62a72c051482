import Shared

/// The user a connection is logged in as.
public struct AuthenticatedUser: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var isAdmin: Bool
    public var createdAt: Int64
    /// SHA-256 of the session token this connection authenticated with.
    public var sessionHash: [UInt8]
}

/// The protocol rules of one connection as a value: which frame may come next, which limits
/// apply, and when a deadline has passed. The I/O shell (`Connection`) feeds it events and
/// performs what it decides; tests drive it with plain numbers for time.
struct ConnectionState {
    enum Phase: Equatable {
        /// TLS handshake under way.
        case handshaking
        /// Handshake done; the first frame must be Hello.
        case awaitingHello
        case open
        /// An error was sent or the peer left; nothing more is read.
        case closing
    }

    /// What to do with a frame that has arrived.
    enum FrameDecision: Equatable {
        /// Answer the Hello with Welcome.
        case welcome
        /// Hand the request to the handlers.
        case dispatch
        /// Send this error; when it is fatal, close afterwards.
        case reject(ErrorMessage)
    }

    struct Limits {
        var handshakeTimeout: Int64
        var idleTimeout: Int64
        var frameTimeout: Int64
        var maxRequestsInFlight: Int
        var maxFrameBeforeLogin: UInt32
        var maxFrame: UInt32
    }

    let limits: Limits
    private(set) var phase: Phase = .handshaking
    /// Handshake and Hello must both be done by this time.
    private let setupDeadline: Int64
    private(set) var lastActivity: Int64
    private(set) var frameStartedAt: Int64?
    private(set) var requestsInFlight = 0
    /// An account request (Register, Login, Resume, Logout) is in flight: later frames wait so
    /// they are judged with the identity it produces.
    private(set) var identityRequestID: UInt32?
    var awaitingIdentity: Bool { identityRequestID != nil }
    private(set) var user: AuthenticatedUser?

    init(limits: Limits, now: Int64) {
        self.limits = limits
        setupDeadline = now + limits.handshakeTimeout
        lastActivity = now
    }

    /// The payload limit the frame decoder must apply now.
    var frameLimit: UInt32 {
        switch phase {
        case .handshaking, .awaitingHello: return ProtocolConstants.helloFrameLimit
        case .open, .closing: return user == nil ? limits.maxFrameBeforeLogin : limits.maxFrame
        }
    }

    /// Frames are taken from the decoder only while this is true.
    var acceptsFrames: Bool { (phase == .awaitingHello || phase == .open) && !awaitingIdentity }

    mutating func handshakeCompleted(now: Int64) {
        if phase == .handshaking { phase = .awaitingHello }
        lastActivity = now
    }

    mutating func bytesArrived(now: Int64, insideFrame: Bool) {
        lastActivity = now
        if insideFrame { if frameStartedAt == nil { frameStartedAt = now } } else { frameStartedAt = nil }
    }

    mutating func received(_ frame: Frame, now: Int64) -> FrameDecision {
        frameStartedAt = nil
        lastActivity = now
        switch phase {
        case .handshaking, .closing:
            return .reject(ErrorMessage(code: .unexpectedMessage, message: "no frames are accepted now"))
        case .awaitingHello:
            guard frame.type == MessageType.hello.rawValue else {
                return .reject(ErrorMessage(code: .helloRequired, message: "the first frame must be Hello (type 0x0001)"))
            }
            let hello: Hello
            do { hello = try frame.decode() } catch {
                return .reject(ErrorMessage(code: error.code, message: error.description))
            }
            guard hello.magic == ProtocolConstants.magic else {
                return .reject(ErrorMessage(code: .badMagic, message: "Hello magic is not 89 53 4E 41 50 0D 0A 1A"))
            }
            guard hello.minVersion <= ProtocolConstants.version, ProtocolConstants.version <= hello.maxVersion else {
                return .reject(ErrorMessage(code: .unsupportedVersion,
                    message: "server speaks version \(ProtocolConstants.version); client offered \(hello.minVersion)...\(hello.maxVersion)"))
            }
            phase = .open
            return .welcome
        case .open:
            guard let type = MessageType(rawValue: frame.type) else {
                return .reject(ErrorMessage(code: .unknownMessageType,
                    message: "unknown message type 0x\(String(frame.type, radix: 16, uppercase: true))"))
            }
            guard type.isRequest, type != .hello else {
                return .reject(ErrorMessage(code: .unexpectedMessage, message: "\(type.name) is not a request a client may send now"))
            }
            guard requestsInFlight < limits.maxRequestsInFlight else {
                return .reject(ErrorMessage(code: .tooManyInFlight,
                    message: "more than \(limits.maxRequestsInFlight) requests in flight"))
            }
            requestsInFlight += 1
            if Self.changesIdentity(type) { identityRequestID = frame.requestID }
            return .dispatch
        }
    }

    /// Register, Login, Resume and Logout change who the connection is.
    static func changesIdentity(_ type: MessageType) -> Bool {
        type == .register || type == .login || type == .resume || type == .logout
    }

    /// A dispatched request has been answered.
    mutating func requestCompleted(requestID: UInt32, identity: IdentityChange, now: Int64) {
        requestsInFlight = max(0, requestsInFlight - 1)
        switch identity {
        case .unchanged: break
        case .loggedIn(let newUser): user = newUser
        case .loggedOut: user = nil
        }
        if requestID == identityRequestID { identityRequestID = nil }
        lastActivity = now
    }

    /// An error that ends the connection because a deadline passed, if one has.
    func expiredDeadline(now: Int64) -> ErrorMessage? {
        switch phase {
        case .handshaking, .awaitingHello:
            if now >= setupDeadline {
                return ErrorMessage(code: .timeout, message: "TLS handshake and Hello not completed in \(limits.handshakeTimeout) ms")
            }
        case .open:
            if let started = frameStartedAt, now - started >= limits.frameTimeout {
                return ErrorMessage(code: .timeout, message: "frame not completed in \(limits.frameTimeout) ms")
            }
            if requestsInFlight == 0, now - lastActivity >= limits.idleTimeout {
                return ErrorMessage(code: .timeout, message: "idle for \(limits.idleTimeout / 1000) s")
            }
        case .closing:
            break
        }
        return nil
    }

    mutating func beginClosing() { phase = .closing }
}

/// How a request changed the connection's identity.
public enum IdentityChange: Sendable, Equatable {
    case unchanged
    case loggedIn(AuthenticatedUser)
    case loggedOut
}
