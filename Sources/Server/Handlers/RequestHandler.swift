import Foundation
import Posix
import Wire

/// Answers one request frame through its route (`RequestTable`): the route decodes it, admits
/// its sender and calls its handler among `Handlers`; here, in one place for every request, the
/// handler runs where its route says, any error becomes an Error reply, the outcome is counted in
/// the metrics and, when the route records it, written to the audit log. Handlers never touch
/// sockets; storage never sees frames.
final class RequestHandler: Sendable {
    let handlers: Handlers
    /// Where audit entries are written.
    let storage: StorageExecutor
    let metrics: ServerMetrics
    let logger: Logger
    let clock: WallClock
    let executor: ThreadPoolExecutor

    init(handlers: Handlers, storage: StorageExecutor, metrics: ServerMetrics, logger: Logger, clock: WallClock) {
        self.handlers = handlers
        self.storage = storage
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
    func answerInline(_ route: RequestRoute, _ request: IncomingRequest) -> HandlerOutcome {
        guard case .inline(let body) = route.run else { preconditionFailure("\(route.request) is not answered inline") }
        let started = MonotonicClock.nanoseconds()
        let note = AuditNote()
        return finished(route, request, note, started, Result { try body(handlers, request, note) })
    }

    /// Answers a request whose route runs in storage or on the handler threads; `completion`
    /// runs on some other thread, once. An admin request its route records is recorded in the
    /// audit log before its reply goes out.
    func handle(_ route: RequestRoute, _ request: IncomingRequest, completion reply: @escaping @Sendable (HandlerOutcome) -> Void) {
        let started = MonotonicClock.nanoseconds()
        let note = AuditNote()
        let completion: @Sendable (Result<HandlerOutcome, any Error>) -> Void = { [self] result in
            reply(finished(route, request, note, started, result))
        }
        switch route.run {
        case .inline(let body):
            completion(Result { try body(handlers, request, note) })
        case .job(let start):
            do { try start(handlers, request, note, completion) } catch { completion(.failure(error)) }
        case .async(let body):
            Task(executorPreference: executor) {
                let result: Result<HandlerOutcome, any Error>
                do {
                    result = .success(try await body(self.handlers, request, note))
                } catch {
                    result = .failure(error)
                }
                completion(result)
            }
        }
    }

    /// The end of every request: an error mapped to its reply, the outcome and latency counted,
    /// and the audit entry its route declares recorded.
    private func finished(
        _ route: RequestRoute, _ request: IncomingRequest, _ note: AuditNote, _ started: UInt64,
        _ result: Result<HandlerOutcome, any Error>
    ) -> HandlerOutcome {
        let outcome =
            switch result {
            case .success(let outcome): outcome
            case .failure(let error): failure(error, request.context)
            }
        metrics.requestCompleted(route.request, result: outcome.result, nanoseconds: MonotonicClock.nanoseconds() &- started)
        audit(route, note, request, outcome)
        return outcome
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

    static func errorMessage(for error: AlbumError) -> ErrorMessage {
        switch error {
        case .tooManyPins: ErrorMessage(code: .invalidArgument, message: error.message)
        case .noPin: ErrorMessage(code: .notFound, message: error.message)
        case .busy: ErrorMessage(code: .albumBusy, message: error.message)
        }
    }
}
