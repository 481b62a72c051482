import Wire

/// Everything the server knows about one kind of request, declared once in `RequestTable`:
/// its message and reply types, who may send it and what the audit log records of it (its
/// `RouteAccess`), where it runs, whether it is a barrier, how large its reply can get, and the
/// handler that answers it, which is given the caller the route admitted.
struct RequestRoute: Sendable {
    /// Who may send the request.
    enum Audience: Sendable, Equatable {
        /// Any connection past Hello, logged in or not.
        case anyone
        /// A logged-in user (else `AUTH_REQUIRED`).
        case user
        /// A member of the connection's class (else `NOT_FOUND`).
        case member
        /// A member of the connection's class with at least this role there (else `FORBIDDEN`).
        case staff(ClassRole)
        /// A site admin (else `FORBIDDEN`, or `AUTH_REQUIRED` when not logged in).
        case site

        /// Whether the audit log records requests of this audience (the staff's and the site
        /// admins'), which is when the route must say what it records.
        var isAudited: Bool {
            switch self {
            case .staff, .site: true
            case .anyone, .user, .member: false
            }
        }

        /// Whether the request acts in the connection's class (its audit entry is the class's).
        var isInClass: Bool {
            switch self {
            case .member, .staff: true
            case .anyone, .user, .site: false
            }
        }
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

    /// How the handler is called, by venue: the route decodes the request, admits its sender
    /// and fills in its `AuditNote`, then calls the handler among `Handlers`.
    enum Run: Sendable {
        case inline(@Sendable (Handlers, IncomingRequest, AuditNote) throws -> HandlerOutcome)
        case job(
            @Sendable (
                Handlers, IncomingRequest, AuditNote,
                @escaping @Sendable (Result<HandlerOutcome, any Error>) -> Void
            ) throws -> Void)
        case async(@Sendable (Handlers, IncomingRequest, AuditNote) async throws -> HandlerOutcome)
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

    private init<Request, Caller>(
        _ access: RouteAccess<Request, Caller>, reply: MessageType, venue: Venue, isBarrier: Bool = false,
        replySize: ReplySize, run: Run
    ) {
        request = Request.type
        self.reply = reply
        audience = access.audience
        audit = access.audit
        self.venue = venue
        self.isBarrier = isBarrier
        self.replySize = replySize
        self.run = run
    }

    /// What a user with a one-time password may do.
    static let allowedBeforePasswordChange: Set<MessageType> = [.changePassword, .whoAmI, .logout, .ping, .poll]
}

extension RequestRoute {
    /// A route answered on the event loop.
    static func inline<Request: WireMessage, Reply: WireMessage, Caller: Sendable>(
        _ request: Request.Type, _ reply: Reply.Type, _ access: RouteAccess<Request, Caller>,
        _ body: @escaping @Sendable (Handlers, Request, Caller, RequestContext) throws -> HandlerOutcome
    ) -> RequestRoute {
        RequestRoute(
            access, reply: Reply.type, venue: .eventLoop, replySize: .small,
            run: .inline { handlers, incoming, note in
                let (request, caller) = try access.admit(incoming, note)
                return try note.guarding { try body(handlers, request, caller, incoming.context) }
            })
    }

    /// A route answered by one storage job whose completion carries the reply.
    static func job<Request: WireMessage, Reply: WireMessage, Caller: Sendable>(
        _ request: Request.Type, _ reply: Reply.Type, _ access: RouteAccess<Request, Caller>, on venue: Venue, replySize: ReplySize,
        _ body:
            @escaping @Sendable (
                Handlers, Request, Caller, RequestContext,
                @escaping @Sendable (Result<HandlerOutcome, any Error>) -> Void
            ) throws -> Void
    ) -> RequestRoute {
        RequestRoute(
            access, reply: Reply.type, venue: venue, replySize: replySize,
            run: .job { handlers, incoming, note, completion in
                let (request, caller) = try access.admit(incoming, note)
                try note.guarding { try body(handlers, request, caller, incoming.context, completion) }
            })
    }

    /// A route answered on the handler threads.
    static func handled<Request: WireMessage, Reply: WireMessage, Caller: Sendable>(
        _ request: Request.Type, _ reply: Reply.Type, _ access: RouteAccess<Request, Caller>, on venue: Venue = .handlers,
        barrier: Bool = false, replySize: ReplySize = .small,
        _ body: @escaping @Sendable (Handlers, Request, Caller, RequestContext) async throws -> HandlerOutcome
    ) -> RequestRoute {
        let run = RequestRoute.Run.async { handlers, incoming, note in
            let (request, caller) = try access.admit(incoming, note)
            return try await note.guardingAsync { try await body(handlers, request, caller, incoming.context) }
        }
        return RequestRoute(access, reply: Reply.type, venue: venue, isBarrier: barrier, replySize: replySize, run: run)
    }
}
