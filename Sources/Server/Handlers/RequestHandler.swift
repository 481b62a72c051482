import Foundation
import Shared

/// Turns one request frame into one reply: decode, check identity and input, run the storage
/// work, encode. Handlers never touch sockets; storage never sees frames.
public final class RequestHandler: Sendable {
    let storage: StorageExecutor
    let configuration: ServerConfiguration
    let changes: ChangeVersion
    /// Wrong passwords, per name and address, per address, and per name.
    let logins: LoginThrottle
    /// Wrong class codes at registration, per address and server-wide.
    let classCodes: LoginThrottle
    let passwords: PasswordWork
    let metrics: ServerMetrics
    let logger: Logger
    let clock: @Sendable () -> Int64
    let executor: ThreadPoolExecutor
    /// Fetches pins' albums in the background (see PinHandlers).
    let albums: AlbumDownloader
    /// Raised with every snap posted (see `ImageCeiling`).
    let imageCeiling: ImageCeiling

    public init(storage: StorageExecutor, configuration: ServerConfiguration, metrics: ServerMetrics,
                logger: Logger, albums: AlbumDownloader, imageCeiling: ImageCeiling = ImageCeiling(),
                clock: @escaping @Sendable () -> Int64 = RequestHandler.wallClock) {
        self.storage = storage
        self.imageCeiling = imageCeiling
        self.albums = albums
        self.configuration = configuration
        self.changes = ChangeVersion()
        self.logins = LoginThrottle(policy: configuration.loginThrottle)
        self.classCodes = LoginThrottle(policy: configuration.classCodeThrottle)
        self.passwords = PasswordWork()
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        self.executor = ThreadPoolExecutor(threads: 2, name: "handler")
    }

    /// The handler threads stop when the handler goes: every task holds it, so by then no job
    /// can arrive. Stopping them earlier would strand a request still in the KDF or in storage,
    /// and with it everything the request holds.
    deinit { executor.shutdown() }

    /// Milliseconds since the Unix epoch.
    @Sendable public static func wallClock() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Answers requests that need no storage (Ping, Poll) on the calling thread; nil otherwise.
    func handleInline(_ frame: Frame, context: RequestContext) -> HandlerOutcome? {
        switch frame.type {
        case MessageType.ping.rawValue:
            return reply(frame, context) { (_: Ping) in Pong() }
        case MessageType.poll.rawValue:
            return reply(frame, context) { (poll: Poll) in
                let version = changes.current(for: try requireUser(context).id)
                return PollResult(version: version, changed: version != poll.knownVersion)
            }
        default:
            return nil
        }
    }

    private func reply<Request: WireMessage, Reply: WireMessage>(
        _ frame: Frame, _ context: RequestContext, _ body: (Request) throws -> Reply
    ) -> HandlerOutcome {
        do {
            let request: Request = try frame.decode()
            return HandlerOutcome(try body(request), requestID: context.requestID)
        } catch {
            return failure(error, context)
        }
    }

    /// Handles a request that needs storage; `completion` runs on some other thread.
    func handle(_ frame: Frame, context: RequestContext, completion: @escaping @Sendable (HandlerOutcome) -> Void) {
        if startImageReply(frame, context, completion) { return }
        Task(executorPreference: executor) {
            let outcome: HandlerOutcome
            do {
                outcome = try await self.route(frame, context)
            } catch {
                outcome = self.failure(error, context)
            }
            completion(outcome)
        }
    }

    /// Requests without fields, whose handlers take no message: they are decoded all the same,
    /// so a payload where none belongs is malformed (and fatal) like any other.
    private static let fieldlessRequests: [UInt16: any WireMessage.Type] = Dictionary(uniqueKeysWithValues: (
        [Logout.self, WhoAmI.self, ListFeeds.self, AdminListUsers.self, AdminStats.self, ListPins.self, RandomPin.self,
         GetMapState.self, ListMovies.self] as [any WireMessage.Type]).map { ($0.type.rawValue, $0) })

    private func route(_ frame: Frame, _ context: RequestContext) async throws -> HandlerOutcome {
        if let fieldless = Self.fieldlessRequests[frame.type] { _ = try frame.decode(fieldless) }
        switch MessageType(rawValue: frame.type) {
        case .register?: return try await register(frame.decode(), context)
        case .login?: return try await login(frame.decode(), context)
        case .resume?: return try await resume(frame.decode(), context)
        case .logout?: return try await logout(context)
        case .whoAmI?: return try await whoAmI(context)
        case .changePassword?: return try await changePassword(frame.decode(), context)
        case .listFeeds?: return try await listFeeds(context)
        case .listSnaps?: return try await listSnaps(frame.decode(), context)
        case .postSnap?: return try await postSnap(frame.decode(), context)
        case .getSnapViews?: return try await snapViews(frame.decode(), context)
        case .adminCreateFeed?: return try await adminCreateFeed(frame.decode(), context)
        case .adminDeleteFeed?: return try await adminDeleteFeed(frame.decode(), context)
        case .adminResetFeeds?: return try await adminResetFeeds(frame.decode(), context)
        case .adminDeleteSnap?: return try await adminDeleteSnap(frame.decode(), context)
        case .adminRestoreView?: return try await adminRestoreView(frame.decode(), context)
        case .adminListUsers?: return try await adminListUsers(context)
        case .adminStats?: return try await adminStats(context)
        case .adminUnlock?: return try await adminUnlock(frame.decode(), context)
        case .adminSetAdmin?: return try await adminSetAdmin(frame.decode(), context)
        case .adminResetPassword?: return try await adminResetPassword(frame.decode(), context)
        default:
            // Each feature area routes its own messages (PinHandlers, MovieHandlers).
            if let outcome = try await routePins(frame, context) { return outcome }
            if let outcome = try await routeMovies(frame, context) { return outcome }
            throw ErrorMessage(code: .unexpectedMessage, message: "message type 0x\(String(frame.type, radix: 16)) is not a request")
        }
    }

    /// Maps any error to an Error frame; internal details go to the log, not to the client.
    func failure(_ error: any Error, _ context: RequestContext) -> HandlerOutcome {
        let message: ErrorMessage
        switch error {
        case let wire as ErrorMessage:
            message = wire
        case let wire as WireError:
            message = ErrorMessage(code: wire.code, message: wire.description)
        case let store as StoreError:
            message = Self.errorMessage(for: store)
            if message.code == .storageFailure || message.code == .internalError {
                logger.error("request \(context.requestID): storage: \(store)")
            }
        case let input as InputError:
            message = ErrorMessage(code: .invalidArgument, message: input.message)
        default:
            logger.error("request \(context.requestID): \(error)")
            message = ErrorMessage(code: .internalError, message: "internal server error")
        }
        return HandlerOutcome(message, requestID: context.requestID)
    }

    static func errorMessage(for error: StoreError) -> ErrorMessage {
        switch error.kind {
        case .notFound: ErrorMessage(code: .notFound, message: error.message)
        case .conflict: ErrorMessage(code: .alreadyExists, message: error.message)
        case .alreadyViewed: ErrorMessage(code: .alreadyViewed, message: error.message)
        case .expired: ErrorMessage(code: .expired, message: error.message)
        case .ownSnap: ErrorMessage(code: .ownSnap, message: error.message)
        case .corrupt, .unavailable, .internalError: ErrorMessage(code: .storageFailure, message: "storage failure")
        }
    }

    /// A wire id as a storage id; ids past Int64's range cannot exist, so they get the same
    /// `notFound` as a missing row.
    static func storageID(_ id: UInt64, orThrow notFound: @autoclosure () -> any Error) throws -> Int64 {
        guard let value = Int64(exactly: id) else { throw notFound() }
        return value
    }

    func requireUser(_ context: RequestContext) throws -> AuthenticatedUser {
        guard let user = context.user else { throw ErrorMessage(code: .authRequired, message: "log in first") }
        return user
    }

    func requireAdmin(_ context: RequestContext) throws -> AuthenticatedUser {
        let user = try requireUser(context)
        guard user.isAdmin else { throw ErrorMessage(code: .forbidden, message: "this command is for admins") }
        return user
    }
}
