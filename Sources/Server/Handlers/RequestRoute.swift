import Wire

/// Everything the server knows about one kind of request, declared once in `RequestTable`:
/// its message and reply types, who may send it and what the audit log records of it, where it
/// runs, whether it is a barrier, how large its reply can get, and the handler that answers it.
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

    /// What the audit log records of an admin request: every admin route says which (see
    /// `AdminAudit`); the others record nothing.
    enum Audit: Sendable, Equatable {
        /// Never recorded: the request only reads, and its handler runs with writes refused.
        case readOnly
        /// Recorded once its outcome is known, allowed or refused, naming what it acts on.
        case recorded
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

    /// How the handler is called, by venue. The route fills in the request's `AuditNote` as it
    /// decodes it.
    enum Run: Sendable {
        case inline(@Sendable (RequestHandler, Frame, RequestContext, AuditNote) throws -> HandlerOutcome)
        case job(@Sendable (RequestHandler, Frame, RequestContext, AuditNote, @escaping @Sendable (HandlerOutcome) -> Void) throws -> Void)
        case async(@Sendable (RequestHandler, Frame, RequestContext, AuditNote) async throws -> HandlerOutcome)
    }

    let request: MessageType
    /// The reply a success sends (an Error otherwise).
    let reply: MessageType
    let audience: Audience
    /// Declared with the audience by every admin route; nil for the others.
    let audit: Audit?
    let venue: Venue
    /// Register, Login, Resume and Logout change who the connection is: the connection reads
    /// nothing more until one is answered.
    let isBarrier: Bool
    let replySize: ReplySize
    let run: Run

    private init<Request>(_ access: RouteAccess<Request>, reply: MessageType, venue: Venue, isBarrier: Bool = false,
                          replySize: ReplySize, run: Run) {
        request = Request.type
        self.reply = reply
        audience = access.audience
        audit = access.audit?.kind
        self.venue = venue
        self.isBarrier = isBarrier
        self.replySize = replySize
        self.run = run
    }
}

extension RequestRoute {
    /// A route answered on the event loop.
    static func inline<Request: WireMessage, Reply: WireMessage>(
        _ request: Request.Type, _ reply: Reply.Type, _ access: RouteAccess<Request>,
        _ body: @escaping @Sendable (RequestHandler, Request, RequestContext) throws -> HandlerOutcome
    ) -> RequestRoute {
        RequestRoute(access, reply: Reply.type, venue: .eventLoop, replySize: .small, run: .inline { handler, frame, context, note in
            let request = try access.admit(frame, context, handler, note)
            return try note.guarding { try body(handler, request, context) }
        })
    }

    /// A route answered by one storage job whose completion carries the reply.
    static func job<Request: WireMessage, Reply: WireMessage>(
        _ request: Request.Type, _ reply: Reply.Type, _ access: RouteAccess<Request>, on venue: Venue, replySize: ReplySize,
        _ body: @escaping @Sendable (RequestHandler, Request, RequestContext, @escaping @Sendable (HandlerOutcome) -> Void) throws -> Void
    ) -> RequestRoute {
        RequestRoute(access, reply: Reply.type, venue: venue, replySize: replySize, run: .job { handler, frame, context, note, completion in
            let request = try access.admit(frame, context, handler, note)
            try note.guarding { try body(handler, request, context, completion) }
        })
    }

    /// A route answered on the handler threads.
    static func handled<Request: WireMessage, Reply: WireMessage>(
        _ request: Request.Type, _ reply: Reply.Type, _ access: RouteAccess<Request>, on venue: Venue = .handlers,
        barrier: Bool = false, replySize: ReplySize = .small,
        _ body: @escaping @Sendable (RequestHandler, Request, RequestContext) async throws -> HandlerOutcome
    ) -> RequestRoute {
        RequestRoute(access, reply: Reply.type, venue: venue, isBarrier: barrier, replySize: replySize, run: .async { handler, frame, context, note in
            let request = try access.admit(frame, context, handler, note)
            return try await note.guarding { try await body(handler, request, context) }
        })
    }
}

/// Who may send a request of type `Request`, and for an admin request what the audit log records
/// of it: the two are one declaration, so an admin route cannot leave its audit out (`.admin`
/// takes an `AdminAudit`, and there is no other way to name the admin audience).
struct RouteAccess<Request: WireMessage>: Sendable {
    let audience: RequestRoute.Audience
    let audit: AdminAudit<Request>?

    /// Any connection past Hello.
    static var anyone: RouteAccess { RouteAccess(audience: .anyone, audit: nil) }
    /// A logged-in user.
    static var user: RouteAccess { RouteAccess(audience: .user, audit: nil) }
    /// An admin, with what the audit log records of the request.
    static func admin(_ audit: AdminAudit<Request>) -> RouteAccess { RouteAccess(audience: .admin, audit: audit) }

    /// Decodes the request (malformed is fatal), notes what its audit entry is to say (the one
    /// decode serves the handler and the audit), then lets it through only for its audience.
    func admit(_ frame: Frame, _ context: RequestContext, _ handler: RequestHandler, _ note: AuditNote) throws -> Request {
        let request: Request = try frame.decode(version: context.protocolVersion)
        if let audit { note.set(Request.type, readsOnly: audit.readsOnly(request)) { outcome in audit.target(request, context, outcome) } }
        try handler.admit(audience, Request.type, context)
        return request
    }
}
