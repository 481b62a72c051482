import Wire
import Crypto
import Imaging

extension RequestHandler {
    func listFeeds(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let now = clock.now()
        let feeds = try await storage.read { store in try store.feedSummaries(viewerID: user.id, now: now) }
        return HandlerOutcome(Feeds(feeds: feeds.map {
            FeedInfo(id: UInt64($0.id), name: $0.name, snapCount: UInt32(clamping: $0.snapCount), unreadCount: UInt32(clamping: $0.unreadCount))
        }), for: context)
    }

    func listSnaps(_ request: ListSnaps, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        // Read the version first: a change racing with the listing then shows up as "changed"
        // on the next poll instead of being missed.
        let version = changes.current(for: user.id)
        let now = clock.now()
        let feedName = request.feed.isEmpty ? nil : try InputRules.normalizedFeedName(request.feed).get()
        // A poster's rejected snaps are listed to them from version 4 on, among the rest by time.
        let withRejections = context.protocolVersion >= 4
        let listings = try await storage.read { store -> [SnapListing] in
            var feedID: Int64?
            if let feedName {
                feedID = try store.requireFeed(named: feedName).id
            }
            let live = try store.snapListings(feedID: feedID, viewerID: user.id, now: now)
            guard withRejections else { return live }
            let rejected = try store.rejectedSnaps(posterID: user.id, feedID: feedID, now: now)
            guard !rejected.isEmpty else { return live }
            return (live + rejected).sorted { ($0.postedAt, $0.id) > ($1.postedAt, $1.id) }
        }
        return HandlerOutcome(Snaps(version: version, snaps: listings.map(Self.info)), for: context)
    }

    func postSnap(_ request: PostSnap, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let feedName = try InputRules.normalizedFeedName(request.feed).get()
        let header = try validateImage(request.image)
        let now = clock.now()
        let snap = NewSnap(
            feedID: 0, posterID: user.id, image: request.image, sha256: SHA256.hash(request.image),
            format: header.format, width: header.width, height: header.height,
            postedAt: now, expiresAt: now + settings.snapTTLMilliseconds,
            awaitingApproval: !user.isAdmin && settings.moderation == .queue)
        imageCeiling.noteStored(request.image.count)
        let quota = user.isAdmin ? nil : PostingQuota(configuration)
        let listing = try await storage.write { store -> SnapListing in
            if let suspension = try store.suspension(userID: user.id, now: now) { throw Self.suspended(suspension, from: "posting", now: now) }
            var stored = snap
            stored.feedID = try store.requireFeed(named: feedName).id
            if let quota {
                // Held until the commit: this student's posts on other instances wait, so none slips past.
                try store.lockUser(id: user.id)
                let usage = try store.postingUsage(posterID: user.id, since: now - PostingQuota.window)
                if let refusal = quota.refusal(for: usage, imageBytes: request.image.count, now: now) { throw refusal }
            }
            var listing = try store.insertSnap(stored)
            if stored.awaitingApproval { listing.status = .pending }
            return listing
        }
        changes.bump()
        metrics.snapPosted(bytes: request.image.count)
        logger.info("\(user.name) posted snap \(listing.id) to \(listing.feedName) (\(listing.byteCount) bytes)"
                    + (listing.status == .pending ? ", awaiting approval" : ""))
        return HandlerOutcome(SnapPosted(snap: Self.info(listing)), for: context)
    }

    /// Who opened a snap: for its poster and for admins.
    func snapViews(_ request: GetSnapViews, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        let now = clock.now()
        let (listing, viewers) = try await storage.read { store -> (SnapListing, [SnapViewerRecord]) in
            guard let listing = try store.snapListing(id: id, viewerID: user.id, now: now) else { throw Self.noSnap(request.snapID) }
            guard listing.posterID == user.id || user.isAdmin else {
                throw ErrorMessage(code: .forbidden, message: "only the poster of snap \(id) and admins see who opened it")
            }
            return (listing, try store.snapViewers(snapID: id))
        }
        var info = Self.info(listing)
        info.openedCount = UInt32(clamping: viewers.count)
        return HandlerOutcome(SnapViews(snap: info, viewers: viewers.map { SnapViewer(username: $0.name, viewedAt: $0.viewedAt) }),
                              for: context)
    }

    /// Checks a posted image all the way through: its size and header, then every row of its
    /// data (without keeping pixels), so a viewer never spends their one view on an image their
    /// client cannot draw. Runs on a handler thread: a ~100 KB image costs a few hundred µs.
    func validateImage(_ bytes: [UInt8]) throws -> ImageHeader {
        let limits = configuration.imageLimits
        do {
            return try ImageCodec.verify(bytes, limits: limits)
        } catch {
            switch error {
            case .tooManyBytes: throw ErrorMessage(code: .imageTooLarge, message: error.description)
            case .dimensionsTooLarge: throw ErrorMessage(code: .imageDimensionsTooLarge, message: error.description)
            case .notAnImage: throw ErrorMessage(code: .unsupportedImage, message: "only PNG and JPEG images are accepted: \(error.description)")
            // Incomplete or damaged data, with the codec's reason ("PNG: IDAT: CRC error").
            default: throw ErrorMessage(code: .unsupportedImage, message: error.description)
            }
        }
    }

    static func info(_ listing: SnapListing) -> SnapInfo {
        SnapInfo(id: UInt64(listing.id), feed: listing.feedName, poster: listing.posterName, postedAt: listing.postedAt,
                 expiresAt: listing.expiresAt, state: listing.status,
                 imageKind: listing.format, byteCount: UInt32(clamping: listing.byteCount),
                 width: UInt32(clamping: listing.width), height: UInt32(clamping: listing.height),
                 openedCount: UInt32(clamping: listing.openedCount), note: listing.note)
    }
}
