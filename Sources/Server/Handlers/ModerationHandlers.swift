import Foundation
import Wire

/// Reports, the admins' queue, unsend and suspensions.
extension RequestHandler {
    func reportSnap(_ request: ReportSnap, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        let reason = try InputRules.normalizedReason(request.reason).get()
        let now = clock.now()
        try await storage.write { store in
            if let suspension = try store.suspension(userID: user.id, now: now) { throw Self.suspended(suspension, from: "reporting snaps", now: now) }
            // Whoever sees the snap in a listing may report it: live, and not their own.
            guard let listing = try store.snapListing(id: id, viewerID: user.id, now: now) else { throw StoreError(.notFound, "no snap \(id)") }
            guard listing.posterID != user.id else {
                throw ErrorMessage(code: .ownSnap, message: "snap \(id) is yours: to take it back, use snapshare unsend \(id)")
            }
            guard listing.expiresAt > now else { throw StoreError(.expired, "snap \(id) has expired; there is nothing left to report") }
            try store.addReport(snapID: id, reporterID: user.id, reason: reason, at: now)
        }
        // The reporter's name is for the admins: the log says only that a report came.
        logger.info("snap \(id) was reported")
        return HandlerOutcome(Ok(), for: context)
    }

    func unsendSnap(_ request: UnsendSnap, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        // From version 4, a poster's rejected snap is listed to them, and unsending it dismisses the notice.
        let dismisses = context.protocolVersion >= 4
        let outcome = try await storage.write { store -> (dismissed: Bool, kept: Bool) in
            if dismisses, try store.dismissRejection(id: id, posterID: user.id) { return (true, false) }
            return (false, try store.unsendSnap(id: id, posterID: user.id))
        }
        if outcome.dismissed {
            changes.bump(for: user.id)
            logger.info("\(user.name) dismissed the rejection of snap \(id)")
        } else {
            changes.bump()
            logger.info("\(user.name) unsent snap \(id)\(outcome.kept ? " (kept for the admins: it is reported)" : "")")
        }
        return HandlerOutcome(Ok(), for: context)
    }

    func adminListReports(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireUser(context)
        let snaps = try await storage.read { store in try store.openReports() }
        return HandlerOutcome(Reports(snaps: snaps), for: context)
    }

    func adminListPending(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireUser(context)
        let snaps = try await storage.read { store in try store.snapsAwaitingApproval() }
        return HandlerOutcome(PendingSnaps(snaps: snaps), for: context)
    }

    func adminApproveSnap(_ request: AdminApproveSnap, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        let approve = request.approve
        // A rejection's reason is for its poster: 0 to 200 characters, no control characters.
        let reason = approve ? "" : try InputRules.normalizedOptionalReason(request.reason).get()
        let now = clock.now()
        try await storage.write { store in
            if approve { try store.approveSnap(id: id); return }
            _ = try store.rejectSnap(id: id, reason: reason, at: now)
        }
        // Everyone's listings may change: an approved snap appears, a rejected one turns into its notice.
        changes.bump()
        logger.info("admin \(admin.name) \(approve ? "approved" : "rejected") snap \(id)")
        return HandlerOutcome(Ok(), for: context)
    }

    func adminResolveReport(_ request: AdminResolveReport, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        guard request.suspendFor >= 0 else { throw ErrorMessage(code: .invalidArgument, message: "suspend_for cannot be negative") }
        let now = clock.now()
        let resolution = request.resolution
        let suspendFor = request.suspendFor
        let poster = try await storage.write { store -> String in
            guard let listing = try store.snapListing(id: id, viewerID: 0, now: now) else { throw StoreError(.notFound, "no snap \(id)") }
            guard try store.isReported(snapID: id) else { throw StoreError(.notFound, "snap \(id) has no open report") }
            switch resolution {
            case .dismiss: _ = try store.dismissReports(snapID: id, now: now)
            case .delete: try store.deleteSnap(id: id)
            }
            if suspendFor > 0 {
                try Self.checkSuspendable(listing.posterName, isAdmin: try store.user(named: listing.posterName)?.isAdmin == true)
                try store.suspend(userID: listing.posterID, until: now + suspendFor, reason: "your snap \(id) was reported and removed",
                                  by: admin.name, at: now)
            }
            return listing.posterName
        }
        changes.bump()
        logger.info("admin \(admin.name) \(resolution == .delete ? "deleted" : "dismissed the reports of") snap \(id)"
                    + (suspendFor > 0 ? " and suspended \(poster)" : ""))
        return HandlerOutcome(Ok(), for: context)
    }

    func adminSuspend(_ request: AdminSuspend, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        guard request.duration > 0 else { throw ErrorMessage(code: .invalidArgument, message: "a suspension needs a positive duration, such as 7d") }
        let reason = try InputRules.normalizedReason(request.reason).get()
        let now = clock.now()
        let username = request.username
        let (until, overflow) = now.addingReportingOverflow(request.duration)
        guard !overflow else { throw ErrorMessage(code: .invalidArgument, message: "that suspension is too long") }
        let name = try await storage.write { store -> String in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            try Self.checkSuspendable(user.name, isAdmin: user.isAdmin)
            try store.suspend(userID: user.id, until: until, reason: reason, by: admin.name, at: now)
            return user.name
        }
        logger.warning("admin \(admin.name) suspended \(name) until \(Self.utc(until))")
        return HandlerOutcome(Ok(), for: context)
    }

    func adminUnsuspend(_ request: AdminUnsuspend, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let username = request.username
        let now = clock.now()
        let name = try await storage.write { store -> String in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            guard try store.unsuspend(userID: user.id, now: now) else { throw StoreError(.notFound, "\(user.name) is not suspended") }
            return user.name
        }
        logger.warning("admin \(admin.name) ended the suspension of \(name)")
        return HandlerOutcome(Ok(), for: context)
    }

    /// Refuses what a suspended student may not do while suspended.
    func refuseIfSuspended(_ user: AuthenticatedUser, from what: String) async throws {
        let now = clock.now()
        if let suspension = try await storage.read({ store in try store.suspension(userID: user.id, now: now) }) {
            throw Self.suspended(suspension, from: what, now: now)
        }
    }

    /// The refusal a suspended student gets: what, until when, and why.
    static func suspended(_ suspension: Suspension, from what: String, now: Int64) -> ErrorMessage {
        ErrorMessage(code: .forbidden, message: "you are suspended from \(what) until \(utc(suspension.until)) "
                     + "(in \(PostingQuota.wait(suspension.until - now))): \(suspension.reason); you can still log in and open snaps")
    }

    /// Admins are not suspended: their right is taken away first.
    static func checkSuspendable(_ name: String, isAdmin: Bool) throws {
        guard !isAdmin else {
            throw ErrorMessage(code: .invalidArgument, message: "\(name) is an admin; take away the admin right first (snapshare admin demote \(name))")
        }
    }

    /// A time for people, in UTC: `2026-12-09 18:00 UTC`.
    static func utc(_ milliseconds: Int64) -> String {
        let text = Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false))
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " UTC"
    }
}
