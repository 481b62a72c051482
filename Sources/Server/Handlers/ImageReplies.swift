import Wire

/// The three requests whose reply carries a stored image: GetPhoto, OpenSnap and AdminViewSnap.
///
/// Each runs as one storage job that checks the request and lays out the reply's head; the image
/// comes from the image cache by the SHA-256 its row names, or, the first time, is copied once
/// from the database pages and kept there. The reply is the head followed by those shared bytes,
/// so from storage to TLS no image is copied into a frame. The job's completion hands the reply to
/// the connection: no handler thread sits in between (see docs/benchmarks.md for what each hop
/// and copy cost).
struct ImageReplies: Sendable {
    let storage: StorageExecutor
    /// Hot images for photo and snap replies (see `ImageCache`).
    let images: ImageCache
    let changes: ChangeVersion
    let logger: Logger
    let clock: WallClock

    /// What a job's completion is given: its reply, or the error the route turns into one.
    typealias Completion = @Sendable (Result<HandlerOutcome, any Error>) -> Void

    /// A photo of the user's albums, full size or thumbnail; pending and failed photos have no bytes yet.
    func sendPhoto(_ request: GetPhoto, _ user: AuthenticatedUser, _ context: RequestContext, _ completion: @escaping Completion) throws {
        let photoID = try StoredID.photo(request.photoID)
        let requestID = context.requestID
        let version = context.protocolVersion
        storage.read(
            { [images] store -> HandlerOutcome in
                try store.withPhotoBytes(id: photoID, userID: user.id, thumbnail: request.variant == .thumbnail) {
                    photo, sha256, stored in
                    let image = try images.bytes(sha256: sha256) { try stored.array() }
                    let head = PhotoImage.frameHead(
                        requestID: requestID, version: version, photo: PhotoInfo(photo), variant: request.variant,
                        sha256: sha256, imageByteCount: image.count)
                    return HandlerOutcome(frameHead: head, image: image)
                }
            }, completion: completion)
    }

    /// The only path by which snap image bytes leave the server to a viewer: the claim commits
    /// first (the storage job's completion runs after its batch's COMMIT returned).
    func openSnap(_ request: OpenSnap, _ member: Member, _ context: RequestContext, _ completion: @escaping Completion) throws {
        let snapID = try StoredID.snap(request.snapID)
        let now = clock.now()
        let requestID = context.requestID
        let version = context.protocolVersion
        storage.write(
            { [images] store -> (reply: HandlerOutcome, posterID: Int64) in
                try store.claimView(snapID: snapID, classID: member.classID, viewerID: member.id, now: now) { listing, sha256, stored in
                    let image = try images.bytes(sha256: sha256) { try stored.array() }
                    let head = SnapImage.frameHead(
                        requestID: requestID, version: version, snap: SnapInfo(listing), sha256: sha256,
                        imageByteCount: image.count)
                    return (HandlerOutcome(frameHead: head, image: image), listing.posterID)
                }
            },
            completion: { [changes, logger] result in
                let opened = if case .success = result { true } else { false }
                if case .success(let claimed) = result {
                    // The viewer's snap turned read, and the poster's count of opens moved.
                    changes.bump(for: member.id)
                    changes.bump(for: claimed.posterID)
                }
                completion(result.map(\.reply))
                // Debug, not info: this runs on the writer thread, up to a batch's worth at a time.
                if opened { logger.debug("\(member.name) opened snap \(snapID)") }
            })
    }

    /// A staff member's look at any snap of the class: the same reply as OpenSnap, from a read
    /// that claims nothing, so no view is spent and they are not among the viewers.
    func viewSnap(_ request: AdminViewSnap, _ staff: Member, _ context: RequestContext, _ completion: @escaping Completion) throws {
        let snapID = try StoredID.snap(request.snapID)
        let requestID = context.requestID
        let version = context.protocolVersion
        storage.read(
            { [images] store -> HandlerOutcome in
                try store.withSnapPicture(id: snapID, classID: staff.classID) { listing, sha256, stored in
                    let image = try images.bytes(sha256: sha256) { try stored.array() }
                    let head = SnapImage.frameHead(
                        requestID: requestID, version: version, snap: SnapInfo(listing), sha256: sha256,
                        imageByteCount: image.count)
                    return HandlerOutcome(frameHead: head, image: image)
                }
            }, completion: completion)
    }
}
