import Wire
import CommandLineParsing

/// Admin requests in the audit log: every one that changes something, allowed or not, with
/// who sent it, what it names (never a password) and how it ended. Read-only ones (ListUsers,
/// Stats, an export's listing) are not actions, but looking at a snap's picture is.
extension RequestHandler {
    /// What an admin request names, or nil for one that is not audited.
    static func auditTarget(of route: RequestRoute, _ frame: Frame, version: UInt16) -> String? {
        func decoded<M: WireMessage>(_ type: M.Type) -> M? { try? frame.decode(version: version) }
        switch route.request {
        case .adminCreateFeed: return decoded(AdminCreateFeed.self).map { "feed \($0.name)" } ?? "?"
        case .adminDeleteFeed: return decoded(AdminDeleteFeed.self).map { "feed \($0.name)" } ?? "?"
        case .adminResetFeeds: return decoded(AdminResetFeeds.self).map { $0.allFeeds ? "every feed" : "feed \($0.name)" } ?? "?"
        case .adminDeleteSnap: return decoded(AdminDeleteSnap.self).map { "snap \($0.snapID)" } ?? "?"
        case .adminRestoreView: return decoded(AdminRestoreView.self).map { "snap \($0.snapID) for \($0.username)" } ?? "?"
        case .adminUnlock: return decoded(AdminUnlock.self).map { "user \($0.username)" } ?? "?"
        case .adminUnlockAddress: return decoded(AdminUnlockAddress.self).map { "address \($0.address)" } ?? "?"
        case .adminSetAdmin: return decoded(AdminSetAdmin.self).map { "user \($0.username) \($0.isAdmin ? "made admin" : "no longer admin")" } ?? "?"
        case .adminResetPassword: return decoded(AdminResetPassword.self).map { "user \($0.username)" } ?? "?"
        case .adminPurge:
            // A dry run only counts: it changes nothing.
            guard let purge = decoded(AdminPurge.self) else { return "?" }
            return purge.dryRun ? nil : "snaps posted more than \(TimeSpan(milliseconds: purge.olderThan)) ago"
        case .adminViewSnap: return decoded(AdminViewSnap.self).map { "snap \($0.snapID)" } ?? "?"
        case .adminResolveReport:
            return decoded(AdminResolveReport.self).map {
                "snap \($0.snapID) \($0.resolution == .delete ? "deleted" : "dismissed")"
                    + ($0.suspendFor > 0 ? ", poster suspended for \(TimeSpan(milliseconds: $0.suspendFor))" : "")
            } ?? "?"
        case .adminSuspend: return decoded(AdminSuspend.self).map { "user \($0.username) for \(TimeSpan(milliseconds: $0.duration)): \($0.reason)" } ?? "?"
        case .adminUnsuspend: return decoded(AdminUnsuspend.self).map { "user \($0.username)" } ?? "?"
        case .adminSetDisabled: return decoded(AdminSetDisabled.self).map { "user \($0.username) \($0.disabled ? "disabled" : "enabled")" } ?? "?"
        case .adminRenameUser: return decoded(AdminRenameUser.self).map { "user \($0.username) renamed \($0.newName)" } ?? "?"
        case .adminDeleteUser: return decoded(AdminDeleteUser.self).map { "user \($0.username)" } ?? "?"
        case .adminApproveSnap:
            return decoded(AdminApproveSnap.self).map {
                "snap \($0.snapID) \($0.approve ? "approved" : "rejected")" + ($0.approve || $0.reason.isEmpty ? "" : ": \($0.reason)")
            } ?? "?"
        case .adminRemoveRosterEntry: return decoded(AdminRemoveRosterEntry.self).map { "roster name \($0.name)" } ?? "?"
        default: return nil
        }
    }

    /// Records an audited admin request once its outcome is known (a write of its own: the
    /// action itself is already committed or refused).
    func audit(_ route: RequestRoute, _ frame: Frame, _ context: RequestContext, _ outcome: HandlerOutcome) {
        guard route.audience == .admin, let target = Self.auditTarget(of: route, frame, version: context.protocolVersion) else { return }
        let entry = AuditRecord(at: clock.now(), actor: context.user?.name ?? "(not logged in)", action: "\(route.request.name)",
                               target: target, result: outcome.result.label)
        let logger = self.logger
        storage.write({ store in try store.recordAudit(entry) }, completion: { outcome in
            if case .failure(let error) = outcome { logger.error("audit log: cannot record \(entry.action) by \(entry.actor): \(error)") }
        })
    }
}

extension RequestHandler {
    /// The most entries one AuditLog carries.
    static let auditPage = 5_000

    func adminAuditLog(_ request: AdminAuditLog, _ context: RequestContext) async throws -> HandlerOutcome {
        let count = min(Int(request.limit), Self.auditPage)
        let entries = try await storage.read { store in try store.auditEntries(since: request.since, limit: count) }
        let limit = FieldLimits.auditText
        return HandlerOutcome(AuditLog(entries: entries.map {
            AuditRecord(at: $0.at, actor: $0.actor.truncatedToUTF8Count(limit), action: $0.action.truncatedToUTF8Count(limit),
                        target: $0.target.truncatedToUTF8Count(limit), result: $0.result.truncatedToUTF8Count(limit))
        }), for: context)
    }
}
