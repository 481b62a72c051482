import Crypto
import Imaging
import Wire

/// Posting a snap: the picture checked all the way through, the student's quota and suspension,
/// the approval queue, the snap's lifetime.
struct PostingHandlers: Sendable {
    let storage: StorageExecutor
    let changes: ChangeVersion
    /// The snaps' lifetime and the moderation mode, as a reload left them.
    let settings: LiveSettings
    /// What a student may post in an hour and keep stored in a class; its staff are exempt.
    let quota: PostingQuota
    let imageLimits: ImageLimits
    /// Raised with every snap posted.
    let imageCeiling: ImageCeiling
    let metrics: ServerMetrics
    let logger: Logger
    let clock: WallClock

    func postSnap(_ request: PostSnap, _ member: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let feedName = try InputRules.normalizedFeedName(request.feed).get()
        let header = try validateImage(request.image)
        let now = clock.now()
        let snap = NewSnap(
            feedID: 0, posterID: member.id, image: request.image, sha256: SHA256.hash(request.image),
            format: header.format, width: header.width, height: header.height,
            postedAt: now, expiresAt: now + settings.snapTTLMilliseconds,
            awaitingApproval: !member.isStaff && settings.moderation == .queue)
        imageCeiling.noteStored(request.image.count)
        let quota = member.isStaff ? nil : self.quota
        let classID = member.classID
        let listing = try await storage.write { store -> SnapListing in
            if let suspension = try store.suspension(userID: member.id, classID: classID, now: now) {
                throw suspension.refusal(from: "posting", now: now)
            }
            var stored = snap
            stored.feedID = try store.requireFeed(named: feedName, classID: classID).id
            if let quota {
                // Held until the commit: this student's posts on other instances wait, so none slips past.
                try store.lockUser(id: member.id)
                let usage = try store.postingUsage(posterID: member.id, classID: classID, since: now - PostingQuota.window)
                if let refusal = quota.refusal(for: usage, imageBytes: request.image.count, now: now) { throw refusal }
            }
            var listing = try store.insertSnap(stored)
            if stored.awaitingApproval { listing.status = .pending }
            return listing
        }
        changes.bump(inClass: classID)
        metrics.snapPosted(bytes: request.image.count)
        logger.info(
            "\(member.name) posted snap \(listing.id) to \(listing.feedName) (\(listing.byteCount) bytes)"
                + (listing.status == .pending ? ", awaiting approval" : ""))
        return HandlerOutcome(SnapPosted(snap: SnapInfo(listing)), for: context)
    }

    /// Checks a posted image all the way through: its size and header, then every row of its
    /// data (without keeping pixels), so a viewer never spends their one view on an image their
    /// client cannot draw. Runs on a handler thread: a ~100 KB image costs a few hundred µs.
    func validateImage(_ bytes: [UInt8]) throws -> ImageHeader {
        do {
            return try ImageCodec.verify(bytes, limits: imageLimits)
        } catch {
            switch error {
            case .tooManyBytes: throw ErrorMessage(code: .imageTooLarge, message: error.description)
            case .dimensionsTooLarge: throw ErrorMessage(code: .imageDimensionsTooLarge, message: error.description)
            case .notAnImage:
                throw ErrorMessage(code: .unsupportedImage, message: "only PNG and JPEG images are accepted: \(error.description)")
            // Incomplete or damaged data, with the codec's reason ("PNG: IDAT: CRC error").
            default: throw ErrorMessage(code: .unsupportedImage, message: error.description)
            }
        }
    }
}
