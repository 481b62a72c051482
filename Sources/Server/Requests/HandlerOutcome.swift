import Wire

/// A handler's answer: the reply frame, already encoded, what it did to the connection's
/// identity, and what it did to other connections' access.
struct HandlerOutcome: Sendable {
    /// The reply frame, or for an image reply the frame up to its image.
    var frame: [UInt8]
    /// An image reply's image, the rest of its frame, sent after `frame` as it is: the bytes are
    /// shared with the image cache, never copied into a frame (`ImageReplies`). Empty otherwise.
    var trailingImage: [UInt8] = []
    var identity: IdentityChange
    /// The reply is a fatal Error: the connection sends it, then close_notify, then closes.
    var closesConnection: Bool
    /// Other live connections this request changed (a logout ends its session everywhere).
    var access: AccessChange?

    init(
        frame: [UInt8], identity: IdentityChange = .unchanged, closesConnection: Bool = false,
        access: AccessChange? = nil
    ) {
        self.frame = frame
        self.identity = identity
        self.closesConnection = closesConnection
        self.access = access
    }

    /// The reply `message` to the request of `context`, in its connection's protocol version.
    init<M: WireMessage>(
        _ message: M, for context: RequestContext, identity: IdentityChange = .unchanged,
        access: AccessChange? = nil
    ) {
        self.init(
            frame: Frame(message, requestID: context.requestID, version: context.protocolVersion).encoded(),
            identity: identity, access: access)
    }

    /// A reply carrying an image: its frame up to the image, then the image.
    init(frameHead: [UInt8], image: [UInt8]) {
        self.init(frame: frameHead)
        trailingImage = image
    }

    /// The bytes of the whole reply frame.
    var byteCount: Int { frame.count + trailingImage.count }

    /// An Error reply; a fatal one closes the connection after it is sent. The Error frame's
    /// layout is the same in every protocol version; a code newer than `version` goes as the
    /// code that version had for it (`ErrorCode.spoken(in:)`).
    init(_ error: ErrorMessage, requestID: UInt32, version: UInt16 = ProtocolConstants.current) {
        self.init(frame: Frame(error, requestID: requestID, version: version).encoded(), closesConnection: error.fatal)
    }

    /// An Error reply to the request of `context`, in its connection's protocol version.
    init(_ error: ErrorMessage, for context: RequestContext) {
        self.init(error, requestID: context.requestID, version: context.protocolVersion)
    }
}

/// A change to the access of connections other than the one that asked, applied by the
/// connection layer on every live connection before the reply goes out.
enum AccessChange: Sendable, Equatable {
    /// The session with this token hash ended (Logout): its other connections close.
    case sessionEnded(tokenHash: [UInt8])
    /// Every session of the user ended except `keeping` (a password change or reset).
    case userSessionsEnded(userID: Int64, keeping: [UInt8]?)
    /// The user's admin right was granted or taken away.
    case adminRightChanged(userID: Int64, isAdmin: Bool)
    /// The user was renamed: their sessions carry on under the new name.
    case renamed(userID: Int64, name: String)
    /// The account was deleted or disabled: every session of it ended, and its connections are told why.
    case accountClosed(userID: Int64, AccountClosure)
    /// The user's classes or roles in them changed: a connection keeps its class with the role
    /// it has now, or, out of it, acts in `fallback` (their default class; nil: none).
    case classesChanged(userID: Int64, classes: [CurrentClass], fallback: CurrentClass?)
}
