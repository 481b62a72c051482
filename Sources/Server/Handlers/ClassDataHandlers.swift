import Wire

/// The staff's requests over their class's stored data as a whole: purging old snaps and listing
/// every snap for an export (their pictures are `ImageReplies.viewSnap`).
struct ClassDataHandlers: Sendable {
    let storage: StorageExecutor
    let changes: ChangeVersion
    let logger: Logger
    let clock: WallClock

    /// The most snaps one ExportedSnaps carries.
    static let exportPage = 200

    func purge(_ request: AdminPurge, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        guard request.olderThan > 0 else {
            throw ErrorMessage(code: .invalidArgument, message: "older_than must be a positive number of milliseconds (such as 30 days)")
        }
        let cutoff = clock.now() - request.olderThan
        if request.dryRun {
            let count = try await storage.read { store in try store.countSnaps(postedBefore: cutoff, classID: admin.classID) }
            return HandlerOutcome(Count(count: UInt64(count)), for: context)
        }
        let count = try await storage.write { store in try store.deleteSnaps(postedBefore: cutoff, classID: admin.classID) }
        if count > 0 { changes.bump(inClass: admin.classID) }
        logger.info("admin \(admin.name) purged \(count) snaps posted before \(cutoff)")
        return HandlerOutcome(Count(count: UInt64(count)), for: context)
    }

    func exportSnaps(_ request: AdminExportSnaps, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let after = Int64(clamping: request.afterID)
        let limit = min(Int(request.limit), Self.exportPage)
        // Only a version-4 connection can ask for snaps awaiting approval, and be told which they are.
        let includePending = request.includePending && context.protocolVersion >= 4
        let page = try await storage.read { store in
            try store.exportedSnaps(classID: admin.classID, afterID: after, limit: limit, includePending: includePending)
        }
        return HandlerOutcome(ExportedSnaps(total: UInt64(page.total), snaps: page.snaps), for: context)
    }
}
