import Wire

/// The admin requests over the class's stored data as a whole: purging old snaps, listing every
/// snap for an export, and looking at any snap's picture without a view.
extension RequestHandler {
    /// The most snaps one ExportedSnaps carries.
    static let exportPage = 200

    func adminPurge(_ request: AdminPurge, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        guard request.olderThan > 0 else {
            throw ErrorMessage(code: .invalidArgument, message: "older_than must be a positive number of milliseconds (such as 30 days)")
        }
        let cutoff = clock.now() - request.olderThan
        if request.dryRun {
            let count = try await storage.read { store in try store.countSnaps(postedBefore: cutoff) }
            return HandlerOutcome(Count(count: UInt64(count)), for: context)
        }
        let count = try await storage.write { store in try store.deleteSnaps(postedBefore: cutoff) }
        if count > 0 { changes.bump() }
        logger.info("admin \(admin.name) purged \(count) snaps posted before \(cutoff)")
        return HandlerOutcome(Count(count: UInt64(count)), for: context)
    }

    func adminExportSnaps(_ request: AdminExportSnaps, _ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireUser(context)
        let after = Int64(clamping: request.afterID)
        let limit = min(Int(request.limit), Self.exportPage)
        // Only a version-4 connection can ask for snaps awaiting approval, and be told which they are.
        let includePending = request.includePending && context.protocolVersion >= 4
        let page = try await storage.read { store in try store.exportedSnaps(afterID: after, limit: limit, includePending: includePending) }
        return HandlerOutcome(ExportedSnaps(total: UInt64(page.total), snaps: page.snaps), for: context)
    }

    /// An admin's look at any snap's picture: the same reply as OpenSnap, from a read that
    /// claims nothing, so no view is spent and the admin is not among the viewers.
    func adminViewSnap(_ request: AdminViewSnap, _ context: RequestContext, _ completion: @escaping @Sendable (HandlerOutcome) -> Void) throws {
        _ = try requireUser(context)
        let snapID = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        let requestID = context.requestID
        let version = context.protocolVersion
        storage.read({ [images] store -> HandlerOutcome in
            try store.withSnapPicture(id: snapID) { listing, sha256, stored in
                let image = try images.bytes(sha256: sha256) { try stored.array() }
                return HandlerOutcome(frameHead: SnapImage.frameHead(requestID: requestID, version: version, snap: Self.info(listing),
                                                                     sha256: sha256, imageByteCount: image.count),
                                      image: image)
            }
        }, completion: { [self] result in
            switch result {
            case .success(let reply): completion(reply)
            case .failure(let error): completion(failure(error, context))
            }
        })
    }
}
