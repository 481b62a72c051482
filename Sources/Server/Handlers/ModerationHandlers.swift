import Wire

/// Reports, the approval queue, unsend and suspensions, in the member's class. A TA suspends for
/// up to `longestTASuspension`; longer needs an instructor.
struct ModerationHandlers: Sendable {
    let storage: StorageExecutor
    let changes: ChangeVersion
    let logger: Logger
    let clock: WallClock

    /// The longest suspension a TA may give (7 days).
    static let longestTASuspension: Int64 = 7 * 86_400_000

    func reportSnap(_ request: ReportSnap, _ user: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        let reason = try InputRules.normalizedReason(request.reason).get()
        let now = clock.now()
        try await storage.write { store in
            if let suspension = try store.suspension(userID: user.id, classID: user.classID, now: now) {
                throw suspension.refusal(from: "reporting snaps", now: now)
            }
            // Whoever sees the snap in a listing may report it: live, and not their own.
            guard let listing = try store.snapListing(id: id, classID: user.classID, viewerID: user.id, now: now) else {
                throw StoreError(.notFound, "no snap \(id)")
            }
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

    func unsendSnap(_ request: UnsendSnap, _ user: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        // From version 4, a poster's rejected snap is listed to them, and unsending it dismisses the notice.
        let dismisses = context.protocolVersion >= 4
        let outcome = try await storage.write { store -> (dismissed: Bool, kept: Bool) in
            if dismisses, try store.dismissRejection(id: id, posterID: user.id, classID: user.classID) { return (true, false) }
            return (false, try store.unsendSnap(id: id, posterID: user.id, classID: user.classID))
        }
        if outcome.dismissed {
            changes.bump(for: user.id)
            logger.info("\(user.name) dismissed the rejection of snap \(id)")
        } else {
            changes.bump(inClass: user.classID)
            logger.info("\(user.name) unsent snap \(id)\(outcome.kept ? " (kept for the admins: it is reported)" : "")")
        }
        return HandlerOutcome(Ok(), for: context)
    }

    func listReports(_ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let snaps = try await storage.read { store in try store.openReports(classID: admin.classID) }
        return HandlerOutcome(Reports(snaps: snaps), for: context)
    }

    func listPending(_ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let snaps = try await storage.read { store in try store.snapsAwaitingApproval(classID: admin.classID) }
        return HandlerOutcome(PendingSnaps(snaps: snaps), for: context)
    }

    func approveSnap(_ request: AdminApproveSnap, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        let approve = request.approve
        // A rejection's reason is for its poster: 0 to 200 characters, no control characters.
        let reason = approve ? "" : try InputRules.normalizedOptionalReason(request.reason).get()
        let now = clock.now()
        try await storage.write { store in
            if approve {
                try store.approveSnap(id: id, classID: admin.classID)
                return
            }
            _ = try store.rejectSnap(id: id, classID: admin.classID, reason: reason, at: now)
        }
        // Everyone's listings may change: an approved snap appears, a rejected one turns into its notice.
        changes.bump(inClass: admin.classID)
        logger.info("admin \(admin.name) \(approve ? "approved" : "rejected") snap \(id)")
        return HandlerOutcome(Ok(), for: context)
    }

    func resolveReport(_ request: AdminResolveReport, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        guard request.suspendFor >= 0 else { throw ErrorMessage(code: .invalidArgument, message: "suspend_for cannot be negative") }
        try Self.checkSuspensionLength(request.suspendFor, by: admin)
        let now = clock.now()
        let resolution = request.resolution
        let suspendFor = request.suspendFor
        let poster = try await storage.write { store -> String in
            guard let listing = try store.snapListing(id: id, classID: admin.classID, viewerID: 0, now: now) else {
                throw StoreError(.notFound, "no snap \(id)")
            }
            guard try store.isReported(snapID: id) else { throw StoreError(.notFound, "snap \(id) has no open report") }
            if suspendFor > 0 {
                let poster = try store.user(id: listing.posterID)
                let role = try store.role(userID: listing.posterID, classID: admin.classID) ?? .student
                try Member.checkSuspendable(listing.posterName, role: role, isSiteAdmin: poster?.isAdmin == true)
            }
            switch resolution {
            case .dismiss: _ = try store.dismissReports(snapID: id, classID: admin.classID, now: now)
            case .delete: try store.deleteSnap(id: id, classID: admin.classID)
            }
            if suspendFor > 0 {
                try store.suspend(
                    userID: listing.posterID, classID: admin.classID, until: now + suspendFor,
                    reason: "your snap \(id) was reported and removed",
                    by: admin.name, at: now)
            }
            return listing.posterName
        }
        changes.bump(inClass: admin.classID)
        logger.info(
            "admin \(admin.name) \(resolution == .delete ? "deleted" : "dismissed the reports of") snap \(id)"
                + (suspendFor > 0 ? " and suspended \(poster)" : ""))
        return HandlerOutcome(Ok(), for: context)
    }

    func suspend(_ request: AdminSuspend, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        guard request.duration > 0 else {
            throw ErrorMessage(code: .invalidArgument, message: "a suspension needs a positive duration, such as 7d")
        }
        try Self.checkSuspensionLength(request.duration, by: admin)
        let reason = try InputRules.normalizedReason(request.reason).get()
        let now = clock.now()
        let username = request.username
        let (until, overflow) = now.addingReportingOverflow(request.duration)
        guard !overflow else { throw ErrorMessage(code: .invalidArgument, message: "that suspension is too long") }
        let name = try await storage.write { store -> String in
            // A site admin is not suspended, in a class of theirs or not.
            if let user = try store.user(named: username), user.isAdmin {
                try Member.checkSuspendable(user.name, role: .owner, isSiteAdmin: true)
            }
            let (user, role) = try admin.classmate(named: username, in: store)
            try Member.checkSuspendable(user.name, role: role, isSiteAdmin: user.isAdmin)
            try store.suspend(userID: user.id, classID: admin.classID, until: until, reason: reason, by: admin.name, at: now)
            return user.name
        }
        logger.warning("admin \(admin.name) suspended \(name) until \(Suspension.utc(until))")
        return HandlerOutcome(Ok(), for: context)
    }

    func unsuspend(_ request: AdminUnsuspend, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let username = request.username
        let now = clock.now()
        let name = try await storage.write { store -> String in
            let user = try admin.classmate(named: username, in: store).user
            guard try store.unsuspend(userID: user.id, classID: admin.classID, now: now) else {
                throw StoreError(.notFound, "\(user.name) is not suspended")
            }
            return user.name
        }
        logger.warning("admin \(admin.name) ended the suspension of \(name)")
        return HandlerOutcome(Ok(), for: context)
    }

    /// A TA's suspensions last at most `longestTASuspension`.
    static func checkSuspensionLength(_ duration: Int64, by member: Member) throws {
        guard member.role < .instructor, duration > longestTASuspension else { return }
        throw ErrorMessage(
            code: .forbidden,
            message:
                "\(member.role.withArticle) may suspend for up to 7d; longer needs the role instructor or above in \(member.classHandle)")
    }
}
