import Synchronization
import Wire

/// What the audit log records of one admin request, declared by its route next to its audience
/// (`RouteAccess.staff`, `RouteAccess.site`): one entry once the outcome is known, allowed or refused, with who sent
/// it, what it names (never a password) and how it ended, made from the request the route decoded
/// for its handler; or nothing, for a request that only reads.
///
/// The rule that keeps it honest: a request goes unrecorded only if it reads only, and a request
/// that reads only runs with storage writes refused (`StorageExecutor.writesRefused`). So a route
/// that changes something either says what to record or fails when it tries.
struct AdminAudit<Request: WireMessage>: Sendable {
    let kind: RequestRoute.Audit
    /// Whether this request only reads; it then runs with writes refused.
    let readsOnly: @Sendable (Request) -> Bool
    /// The entry's target once the outcome is known, given the account the route admitted (nil
    /// when it refused the sender); nil, for a request that reads only, when it is not an action
    /// (a dry run, a listing's next page, a picture its export covers).
    let target: @Sendable (Request, AuthenticatedUser?, RequestContext, HandlerOutcome) -> String?

    /// Not recorded: the request reads and changes nothing (a listing, the log itself).
    static var readOnly: AdminAudit { AdminAudit(kind: .readOnly, readsOnly: { _ in true }, target: { _, _, _, _ in nil }) }

    /// Recorded, allowed or refused, naming `target(request)`.
    static func recorded(_ target: @escaping @Sendable (Request) -> String) -> AdminAudit {
        AdminAudit(kind: .recorded, readsOnly: { _ in false }, target: { request, _, _, _ in target(request) })
    }

    /// Recorded unless `isDryRun(request)`: a dry run only counts, and runs so.
    static func recorded(
        unlessDryRun isDryRun: @escaping @Sendable (Request) -> Bool,
        _ target: @escaping @Sendable (Request) -> String
    ) -> AdminAudit {
        AdminAudit(kind: .recorded, readsOnly: isDryRun, target: { request, _, _, _ in isDryRun(request) ? nil : target(request) })
    }
}

/// What one admin request's audit entry is to name, filled in by its route as it decodes the
/// request and read when the outcome is known (on whichever thread completes it).
final class AuditNote: Sendable {
    private struct Note {
        var refusal: String?
        var target: @Sendable (HandlerOutcome) -> String?
    }

    private let note = Mutex<Note?>(nil)

    /// Notes a decoded request of `type`: whether it reads only, and how its target is made.
    func set(_ type: MessageType, readsOnly: Bool, target: @escaping @Sendable (HandlerOutcome) -> String?) {
        let refusal = readsOnly ? "\(type.name) reads only, so it is not in the audit log, yet it tried to write" : nil
        note.withLock { $0 = Note(refusal: refusal, target: target) }
    }

    /// Runs the request's handler, with storage writes refused when the request reads only.
    func guarding<T>(_ body: () throws -> T) rethrows -> T {
        try StorageExecutor.$writesRefused.withValue(note.withLock { $0?.refusal }) { try body() }
    }

    /// `guarding` for a handler that awaits.
    func guardingAsync<T>(_ body: () async throws -> T) async rethrows -> T {
        try await StorageExecutor.$writesRefused.withValue(note.withLock { $0?.refusal }) { try await body() }
    }

    /// The target for `outcome`, or nil when the request is not recorded, which only a request that
    /// read only may be. A request too malformed to decode is recorded under its type alone.
    func target(for outcome: HandlerOutcome) -> String? {
        guard let note = note.withLock({ $0 }) else { return "(malformed request)" }
        return note.target(outcome) ?? (note.refusal == nil ? "(unnamed)" : nil)
    }
}

extension RequestHandler {
    /// Records an admin request its route declares recorded, once its outcome is known (a write of
    /// its own: the action itself is already committed or refused), under whoever sent it.
    func audit(_ route: RequestRoute, _ note: AuditNote, _ request: IncomingRequest, _ outcome: HandlerOutcome) {
        guard route.audit == .recorded, let target = note.target(for: outcome) else { return }
        let entry = AuditRecord(
            at: clock.now(), actor: request.sender?.name ?? "(not logged in)", action: "\(route.request.name)",
            target: target, result: outcome.result.label)
        let logger = self.logger
        let classID = route.audience.isInClass ? request.sender?.currentClass?.id : nil
        storage.write(
            { store in try store.recordAudit(entry, classID: classID) },
            completion: { outcome in
                if case .failure(let error) = outcome {
                    logger.error("audit log: cannot record \(entry.action) by \(entry.actor): \(error)")
                }
            })
    }
}
