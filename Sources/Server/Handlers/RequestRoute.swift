import Wire

/// Everything the server knows about one kind of request, declared once in `RequestTable`:
/// its message and reply types, who may send it, where it runs, whether it is a barrier, how
/// large its reply can get, and the handler that answers it.
struct RequestRoute: Sendable {
    /// Who may send the request.
    enum Audience: Sendable {
        /// Any connection past Hello, logged in or not.
        case anyone
        /// A logged-in user (else `AUTH_REQUIRED`).
        case user
        /// An admin (else `FORBIDDEN`, or `AUTH_REQUIRED` when not logged in).
        case admin
    }

    /// Where the request is answered.
    enum Venue: Sendable, Equatable {
        /// On the event loop, at once: no storage, no waiting.
        case eventLoop
        /// As one job on a storage reader, whose completion hands the reply to the loop.
        case storageReader
        /// As one job on the storage writer (committed before the reply), likewise.
        case storageWriter
        /// On the handler threads, which may wait for storage.
        case handlers
        /// On the handler threads, hashing or checking a password on the KDF threads.
        case kdf
    }

    /// How the handler is called, by venue.
    enum Run: Sendable {
        case inline(@Sendable (RequestHandler, Frame, RequestContext) throws -> HandlerOutcome)
        case job(@Sendable (RequestHandler, Frame, RequestContext, @escaping @Sendable (HandlerOutcome) -> Void) throws -> Void)
        case async(@Sendable (RequestHandler, Frame, RequestContext) async throws -> HandlerOutcome)
    }

    let request: MessageType
    /// The reply a success sends (an Error otherwise).
    let reply: MessageType
    let audience: Audience
    let venue: Venue
    /// Register, Login, Resume and Logout change who the connection is: the connection reads
    /// nothing more until one is answered.
    let isBarrier: Bool
    let replySize: ReplySize
    let run: Run
}

extension RequestRoute {
    /// A route answered on the event loop. The payload is decoded first (malformed is fatal),
    /// then the audience is checked.
    static func inline<Request: WireMessage, Reply: WireMessage>(
        _ request: Request.Type, _ reply: Reply.Type, _ audience: Audience,
        _ body: @escaping @Sendable (RequestHandler, Request, RequestContext) throws -> HandlerOutcome
    ) -> RequestRoute {
        RequestRoute(request: Request.type, reply: Reply.type, audience: audience, venue: .eventLoop, isBarrier: false,
                     replySize: .small, run: .inline { handler, frame, context in
            let message: Request = try frame.decode(version: context.protocolVersion)
            try handler.admit(audience, Request.type, context)
            return try body(handler, message, context)
        })
    }

    /// A route answered by one storage job whose completion carries the reply.
    static func job<Request: WireMessage, Reply: WireMessage>(
        _ request: Request.Type, _ reply: Reply.Type, _ audience: Audience, on venue: Venue, replySize: ReplySize,
        _ body: @escaping @Sendable (RequestHandler, Request, RequestContext, @escaping @Sendable (HandlerOutcome) -> Void) throws -> Void
    ) -> RequestRoute {
        RequestRoute(request: Request.type, reply: Reply.type, audience: audience, venue: venue, isBarrier: false,
                     replySize: replySize, run: .job { handler, frame, context, completion in
            let message: Request = try frame.decode(version: context.protocolVersion)
            try handler.admit(audience, Request.type, context)
            try body(handler, message, context, completion)
        })
    }

    /// A route answered on the handler threads.
    static func handled<Request: WireMessage, Reply: WireMessage>(
        _ request: Request.Type, _ reply: Reply.Type, _ audience: Audience, on venue: Venue = .handlers,
        barrier: Bool = false, replySize: ReplySize = .small,
        _ body: @escaping @Sendable (RequestHandler, Request, RequestContext) async throws -> HandlerOutcome
    ) -> RequestRoute {
        RequestRoute(request: Request.type, reply: Reply.type, audience: audience, venue: venue, isBarrier: barrier,
                     replySize: replySize, run: .async { handler, frame, context in
            let message: Request = try frame.decode(version: context.protocolVersion)
            try handler.admit(audience, Request.type, context)
            return try await body(handler, message, context)
        })
    }
}
