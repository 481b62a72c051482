import Foundation
import Wire
import Posix

/// Turns one request frame into one reply: decode, check identity and input, run the storage
/// work, encode. Handlers never touch sockets; storage never sees frames.
public final class RequestHandler: Sendable {
    let storage: StorageExecutor
    let configuration: ServerConfiguration
    /// What a reload changes while the server runs (the class code, the snaps' lifetime).
    let settings: LiveSettings
    let changes: ChangeVersion
    /// Wrong passwords, per name and address, per address, and per name.
    let logins: LoginThrottle
    /// Wrong class codes at registration, per address and server-wide.
    let classCodes: LoginThrottle
    /// Wrong passwords from devices that logged in before: each device's own budget.
    let deviceLogins: LoginThrottle
    let passwords: PasswordWork
    let metrics: ServerMetrics
    let logger: Logger
    let clock: WallClock
    let executor: ThreadPoolExecutor
    /// The album lifecycle: pins, their downloads, New Collection, Random Pin (see PinHandlers).
    let albums: Albums
    /// Raised with every snap posted (see `ImageCeiling`).
    let imageCeiling: ImageCeiling
    /// Hot images for photo and snap replies (see `ImageCache`).
    let images: ImageCache

    public init(storage: StorageExecutor, configuration: ServerConfiguration, metrics: ServerMetrics,
                logger: Logger, albums: Albums, changes: ChangeVersion = ChangeVersion(), imageCeiling: ImageCeiling = ImageCeiling(),
                clock: WallClock = .system) {
        self.storage = storage
        self.imageCeiling = imageCeiling
        self.images = ImageCache(capacityBytes: configuration.imageCacheBytes)
        self.albums = albums
        self.configuration = configuration
        self.settings = LiveSettings(configuration)
        self.changes = changes
        self.logins = LoginThrottle(kind: "login", policy: configuration.loginThrottle)
        self.classCodes = LoginThrottle(kind: "class-code", policy: configuration.classCodeThrottle)
        self.deviceLogins = LoginThrottle(kind: "login-device", policy: configuration.deviceLoginThrottle)
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

    /// Answers a request whose route runs on the event loop, on the calling thread.
    func answerInline(_ route: RequestRoute, _ frame: Frame, context: RequestContext) -> HandlerOutcome {
        guard case .inline(let body) = route.run else { preconditionFailure("\(route.request) is not answered inline") }
        let completion = measured(route)
        let note = AuditNote()
        let outcome: HandlerOutcome
        do { outcome = try body(self, frame, context, note) } catch { outcome = failure(error, context) }
        completion(outcome)
        audit(route, note, context, outcome)
        return outcome
    }

    /// Answers a request whose route runs in storage or on the handler threads; `completion`
    /// runs on some other thread, once. An admin request its route records is recorded in the
    /// audit log before its reply goes out.
    func handle(_ route: RequestRoute, _ frame: Frame, context: RequestContext,
                completion reply: @escaping @Sendable (HandlerOutcome) -> Void) {
        let measure = measured(route)
        let note = AuditNote()
        let completion: @Sendable (HandlerOutcome) -> Void = { [self] outcome in
            measure(outcome)
            audit(route, note, context, outcome)
            reply(outcome)
        }
        switch route.run {
        case .inline(let body):
            completion((try? body(self, frame, context, note)) ?? failure(ErrorMessage(code: .internalError, message: "internal server error"), context))
        case .job(let start):
            do { try start(self, frame, context, note, completion) } catch { completion(failure(error, context)) }
        case .async(let body):
            Task(executorPreference: executor) {
                let outcome: HandlerOutcome
                do {
                    outcome = try await body(self, frame, context, note)
                } catch {
                    outcome = self.failure(error, context)
                }
                completion(outcome)
            }
        }
    }

    /// Starts the clock on a request of `route`; the returned closure counts its outcome and
    /// latency in the metrics, once the reply is known.
    private func measured(_ route: RequestRoute) -> @Sendable (HandlerOutcome) -> Void {
        let started = MonotonicClock.nanoseconds()
        return { [metrics] outcome in
            metrics.requestCompleted(route.request, result: outcome.result, nanoseconds: MonotonicClock.nanoseconds() &- started)
        }
    }

    /// Refuses a request its sender may not make: `AUTH_REQUIRED` before login, `FORBIDDEN` for
    /// an admin request from someone else, `PASSWORD_CHANGE_REQUIRED` for anything but changing a
    /// one-time password (or leaving). The one place these rules live (see `RequestTable`).
    func admit(_ audience: RequestRoute.Audience, _ type: MessageType, _ context: RequestContext) throws {
        switch audience {
        case .anyone: return
        case .user: _ = try requireUser(context)
        case .admin: _ = try requireAdmin(context)
        }
        if context.user?.mustChangePassword == true, !Self.allowedBeforePasswordChange.contains(type) {
            throw ErrorMessage(code: .passwordChangeRequired,
                               message: "your password is a one-time password from your instructor; choose your own first: snapshare passwd")
        }
    }

    /// What a user with a one-time password may do.
    static let allowedBeforePasswordChange: Set<MessageType> = [.changePassword, .whoAmI, .logout, .ping, .poll]

    /// Poll: the user's change version, compared with the one the client knows.
    func poll(_ request: Poll, _ context: RequestContext) -> HandlerOutcome {
        let version = changes.current(for: context.user?.id ?? 0)
        return HandlerOutcome(PollResult(version: version, changed: version != request.knownVersion), for: context)
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
        case let album as AlbumError:
            message = Self.errorMessage(for: album)
        case let input as InputError:
            message = ErrorMessage(code: .invalidArgument, message: input.message)
        default:
            logger.error("request \(context.requestID): \(error)")
            message = ErrorMessage(code: .internalError, message: "internal server error")
        }
        return HandlerOutcome(message, for: context)
    }

    static func errorMessage(for error: StoreError) -> ErrorMessage {
        switch error.kind {
        case .notFound: ErrorMessage(code: .notFound, message: error.message)
        case .conflict: ErrorMessage(code: .alreadyExists, message: error.message)
        case .alreadyViewed: ErrorMessage(code: .alreadyViewed, message: error.message)
        case .expired: ErrorMessage(code: .expired, message: error.message)
        case .ownSnap: ErrorMessage(code: .ownSnap, message: error.message)
        case .unavailable: ErrorMessage(code: .storageFailure, message: "the database is unavailable; nothing was changed, try again")
        case .corrupt, .internalError: ErrorMessage(code: .storageFailure, message: "storage failure")
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
