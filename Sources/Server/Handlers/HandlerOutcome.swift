import Shared

/// A handler's answer: the reply frame, already encoded, and what it did to the identity.
public struct HandlerOutcome: Sendable {
    public var frame: [UInt8]
    public var identity: IdentityChange

    public init(frame: [UInt8], identity: IdentityChange = .unchanged) {
        self.frame = frame
        self.identity = identity
    }

    public init<M: WireMessage>(_ message: M, requestID: UInt32, identity: IdentityChange = .unchanged) {
        self.init(frame: Frame(message, requestID: requestID).encoded(), identity: identity)
    }
}

/// What a handler knows about the request's connection.
public struct RequestContext: Sendable {
    public var requestID: UInt32
    public var user: AuthenticatedUser?
    public init(requestID: UInt32, user: AuthenticatedUser?) { self.requestID = requestID; self.user = user }
}
