import Wire

/// The protocol rules of one connection as a value: which frame may come next, which limits
/// apply, how many bytes it may hold, and when a deadline has passed. The I/O shell
/// (`Connection`) feeds it events and performs what it decides; tests drive it with plain
/// numbers for time and bytes.
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
        /// Hand the request to the handlers; its reservation counts against the connection's
        /// buffer budget until it is answered.
        case dispatch(Reservation)
        /// Keep the frame and read nothing more until replies drain: the buffer budget is spent.
        case hold
        /// Send this error; when it is fatal, close afterwards.
        case reject(ErrorMessage)
    }

    struct Limits {
        var handshakeTimeout: Int64
        var idleTimeout: Int64
        var frameTimeout: Int64
        /// After Hello (and after a Logout), the connection must log in within this time.
        var loginTimeout: Int64
        var maxRequestsInFlight: Int
        var maxFrameBeforeLogin: UInt32
        var maxFrame: UInt32
        /// Bytes of requests being handled and replies not yet sent that one connection may hold.
        var bufferBudget: Int
        /// The protocol versions this server serves (`--protocol-versions`).
        var protocolVersions: ClosedRange<UInt16> = ProtocolConstants.versions
    }

    let limits: Limits
    private(set) var phase: Phase = .handshaking
    /// Handshake and Hello must both be done by this time.
    private let setupDeadline: Int64
    /// A connection that is not logged in must be by this time.
    private(set) var loginDeadline: Int64?
    private(set) var lastActivity: Int64
    private(set) var frameStartedAt: Int64?
    private(set) var requestsInFlight = 0
    /// An account request (Register, Login, Resume, Logout) is in flight: later frames wait so
    /// they are judged with the identity it produces.
    private(set) var identityRequestID: UInt32?
    var awaitingIdentity: Bool { identityRequestID != nil }
    private(set) var user: AuthenticatedUser?
    /// The version Hello settled on: every frame after it is read and written in its layout.
    private(set) var protocolVersion = ProtocolConstants.current
    /// Bytes reserved by requests in flight: their payload plus the most their reply can be.
    private(set) var reservedBytes = 0
    /// A listing's reply grows with the data, so one is prepared at a time; its estimate is the
    /// size of this connection's last listing.
    private(set) var listingInFlight = false
    private(set) var listingEstimate = ReplySize.initialListingEstimate

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

    /// Whether more bytes may be read, given what the connection already holds: replies queued
    /// (`queuedBytes`) and a frame still arriving (`bufferedBytes`).
    func mayRead(queuedBytes: Int, bufferedBytes: Int) -> Bool {
        guard phase != .closing, !awaitingIdentity else { return false }
        return queuedBytes + reservedBytes + bufferedBytes < limits.bufferBudget
    }

    mutating func handshakeCompleted(now: Int64) {
        if phase == .handshaking { phase = .awaitingHello }
        lastActivity = now
    }

    mutating func bytesArrived(now: Int64, insideFrame: Bool) {
        lastActivity = now
        if insideFrame { if frameStartedAt == nil { frameStartedAt = now } } else { frameStartedAt = nil }
    }

    /// Judges a complete frame. `queuedBytes` is the reply output not yet sent; `imageReply`
    /// the most an image reply can be now (see `ImageCeiling`), the largest frame by default.
    mutating func received(_ frame: Frame, now: Int64, queuedBytes: Int = 0, imageReply: Int? = nil) -> FrameDecision {
        // The frame is complete, so its deadline is over, held or not.
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
            guard hello.minVersion <= hello.maxVersion,
                let version = VersionChoice.highestCommon(served: limits.protocolVersions, offered: hello.minVersion...hello.maxVersion)
            else {
                return .reject(
                    ErrorMessage(
                        code: .unsupportedVersion,
                        message: VersionChoice.refusal(served: limits.protocolVersions, offered: hello.minVersion, hello.maxVersion)))
            }
            protocolVersion = version
            phase = .open
            loginDeadline = now + limits.loginTimeout
            return .welcome
        case .open:
            // A type the connection's version does not have is unknown, as that version defines.
            guard let type = MessageType(rawValue: frame.type, version: protocolVersion) else {
                return .reject(
                    ErrorMessage(
                        code: .unknownMessageType,
                        message: "unknown message type 0x\(String(frame.type, radix: 16, uppercase: true))"))
            }
            guard let route = RequestTable.route(frame.type) else {
                return .reject(ErrorMessage(code: .unexpectedMessage, message: "\(type.name) is not a request a client may send now"))
            }
            // A held frame is still in flight from the client's side, so the cap counts it.
            guard requestsInFlight < limits.maxRequestsInFlight else {
                return .reject(
                    ErrorMessage(
                        code: .tooManyInFlight,
                        message: "more than \(limits.maxRequestsInFlight) requests in flight"))
            }
            let reply = route.replySize
            let image = imageReply ?? Int(limits.maxFrame) + FrameHeader.size
            let reservation = frame.payloadCount + reply.estimate(image: image, listing: listingEstimate)
            // Whatever a client pipelines, requests start only while what the connection holds
            // stays within its budget. A connection holding nothing may always start one, so a
            // reply larger than the budget cannot deadlock it; anything held drains by itself.
            let holdsNothing = requestsInFlight == 0 && queuedBytes == 0
            if !holdsNothing {
                guard !(reply == .listing && listingInFlight),
                    queuedBytes + reservedBytes + reservation <= limits.bufferBudget
                else { return .hold }
            }
            requestsInFlight += 1
            reservedBytes += reservation
            if reply == .listing { listingInFlight = true }
            if route.isBarrier { identityRequestID = frame.requestID }
            return .dispatch(Reservation(bytes: reservation, listing: reply == .listing))
        }
    }

    /// A dispatched request has been answered with a reply of `replyBytes`.
    mutating func requestCompleted(
        requestID: UInt32, identity: IdentityChange, reservation: Reservation = .none,
        replyBytes: Int = 0, now: Int64
    ) {
        requestsInFlight = max(0, requestsInFlight - 1)
        reservedBytes = max(0, reservedBytes - reservation.bytes)
        if reservation.listing {
            listingInFlight = false
            listingEstimate = max(ReplySize.smallEstimate, replyBytes)
        }
        switch identity {
        case .unchanged: break
        case .loggedIn(let newUser):
            user = newUser
            loginDeadline = nil
        case .loggedOut:
            user = nil
            loginDeadline = now + limits.loginTimeout
        case .classChosen(let chosen):
            user?.currentClass = chosen
        }
        if requestID == identityRequestID { identityRequestID = nil }
        lastActivity = now
    }

    /// Another connection changed this user's admin right.
    mutating func adminRightChanged(to isAdmin: Bool) { user?.isAdmin = isAdmin }

    /// An admin renamed this user.
    mutating func renamed(to name: String) { user?.name = name }

    /// The user's memberships changed: the connection keeps its class with the role they have
    /// there now; out of it, it acts in `fallback`. A site admin stays in a class they are not a
    /// member of (they act there as its owner).
    mutating func classesChanged(_ classes: [CurrentClass], fallback: CurrentClass?) {
        user?.classesChanged(classes, fallback: fallback)
    }

    /// An error that ends the connection because a deadline passed, if one has, and whether it
    /// is a frame's deadline (the error then answers that frame).
    func expiredDeadline(now: Int64) -> (error: ErrorMessage, frame: Bool)? {
        switch phase {
        case .handshaking, .awaitingHello:
            if now >= setupDeadline {
                return (
                    ErrorMessage(code: .timeout, message: "TLS handshake and Hello not completed in \(limits.handshakeTimeout) ms"), false
                )
            }
        case .open:
            if let started = frameStartedAt, now - started >= limits.frameTimeout {
                return (ErrorMessage(code: .timeout, message: "frame not completed in \(limits.frameTimeout) ms"), true)
            }
            if user == nil, !awaitingIdentity, let deadline = loginDeadline, now >= deadline {
                return (ErrorMessage(code: .timeout, message: "not logged in within \(limits.loginTimeout / 1000) s"), false)
            }
            if requestsInFlight == 0, now - lastActivity >= limits.idleTimeout {
                return (ErrorMessage(code: .timeout, message: "idle for \(limits.idleTimeout / 1000) s"), false)
            }
        case .closing:
            break
        }
        return nil
    }

    mutating func beginClosing() { phase = .closing }
}

/// The share of a connection's buffer budget a request holds while it is handled.
struct Reservation: Equatable, Sendable {
    var bytes: Int
    /// The request is a listing (at most one is prepared at a time per connection).
    var listing: Bool

    static let none = Reservation(bytes: 0, listing: false)
}
