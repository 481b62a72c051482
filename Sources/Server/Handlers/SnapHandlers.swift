import Wire

/// What a user reads of the feeds: whether anything changed (Poll), the feeds, a feed's snaps,
/// and who opened a snap.
struct SnapHandlers: Sendable {
    let storage: StorageExecutor
    let changes: ChangeVersion
    let clock: WallClock

    /// Poll: the user's change version in their class, compared with the one the client knows.
    func poll(_ request: Poll, _ user: AuthenticatedUser, _ context: RequestContext) -> HandlerOutcome {
        let version = changes.current(for: user.id, in: user.currentClass?.id)
        return HandlerOutcome(PollResult(version: version, changed: version != request.knownVersion), for: context)
    }

    func listFeeds(_ member: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let now = clock.now()
        let feeds = try await storage.read { store in try store.feedSummaries(classID: member.classID, viewerID: member.id, now: now) }
        return HandlerOutcome(
            Feeds(
                feeds: feeds.map {
                    FeedInfo(
                        id: UInt64($0.id), name: $0.name, snapCount: UInt32(clamping: $0.snapCount),
                        unreadCount: UInt32(clamping: $0.unreadCount))
                }), for: context)
    }

    func listSnaps(_ request: ListSnaps, _ member: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        // Read the version first: a change racing with the listing then shows up as "changed"
        // on the next poll instead of being missed.
        let version = changes.current(for: member.id, in: member.classID)
        let classID = member.classID
        let now = clock.now()
        let feedName = request.feed.isEmpty ? nil : try InputRules.normalizedFeedName(request.feed).get()
        // A poster's rejected snaps are listed to them from version 4 on, among the rest by time.
        let withRejections = context.protocolVersion >= 4
        let listings = try await storage.read { store -> [SnapListing] in
            var feedID: Int64?
            if let feedName {
                feedID = try store.requireFeed(named: feedName, classID: classID).id
            }
            let live = try store.snapListings(classID: classID, feedID: feedID, viewerID: member.id, now: now)
            guard withRejections else { return live }
            let rejected = try store.rejectedSnaps(posterID: member.id, classID: classID, feedID: feedID, now: now)
            guard !rejected.isEmpty else { return live }
            return (live + rejected).sorted { ($0.postedAt, $0.id) > ($1.postedAt, $1.id) }
        }
        return HandlerOutcome(Snaps(version: version, snaps: listings.map(SnapInfo.init)), for: context)
    }

    /// Who opened a snap: for its poster and for the class's staff.
    func snapViews(_ request: GetSnapViews, _ member: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        let now = clock.now()
        let (listing, viewers) = try await storage.read { store -> (SnapListing, [SnapViewerRecord]) in
            guard let listing = try store.snapListing(id: id, classID: member.classID, viewerID: member.id, now: now) else {
                throw StoredID.noSnap(request.snapID)
            }
            guard listing.posterID == member.id || member.isStaff else {
                throw ErrorMessage(
                    code: .forbidden, message: "only the poster of snap \(id) and the class's staff (a ta or above) see who opened it")
            }
            return (listing, try store.snapViewers(snapID: id))
        }
        var info = SnapInfo(listing)
        info.openedCount = UInt32(clamping: viewers.count)
        return HandlerOutcome(
            SnapViews(snap: info, viewers: viewers.map { SnapViewer(username: $0.name, viewedAt: $0.viewedAt) }),
            for: context)
    }
}
