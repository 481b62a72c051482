import Wire

/// The two requests whose reply carries a stored image: GetPhoto and OpenSnap.
///
/// Each runs as one storage job that checks the request and lays out the reply's head; the image
/// comes from the image cache by the SHA-256 its row names, or, the first time, is copied once
/// from the database pages and kept there. The reply is the head followed by those shared bytes,
/// so from storage to TLS no image is copied into a frame. The job's completion hands the reply to
/// the connection: no handler thread sits in between (see docs/benchmarks.md for what each hop
/// and copy cost).
extension RequestHandler {
    /// A photo of the user's albums, full size or thumbnail; pending and failed photos have no bytes yet.
    func sendPhoto(_ request: GetPhoto, _ context: RequestContext, _ completion: @escaping @Sendable (HandlerOutcome) -> Void) throws {
        let user = try requireUser(context)
        let photoID = try Self.storageID(request.photoID, orThrow: Self.noPhoto(request.photoID))
        let requestID = context.requestID
        let version = context.protocolVersion
        storage.read({ [images] store -> HandlerOutcome in
            try store.withPhotoBytes(id: photoID, userID: user.id, thumbnail: request.variant == .thumbnail) {
                photo, sha256, stored in
                let image = try images.bytes(sha256: sha256) { try stored.array() }
                return HandlerOutcome(frameHead: PhotoImage.frameHead(requestID: requestID, version: version, photo: Self.info(photo), variant: request.variant,
                                                                      sha256: sha256, imageByteCount: image.count),
                                      image: image)
            }
        }, completion: { [self] result in
            completion(outcome(result, context))
        })
    }

    /// The only path by which snap image bytes leave the server: the claim commits first (the
    /// storage job's completion runs after its batch's COMMIT returned).
    func openSnap(_ request: OpenSnap, _ context: RequestContext, _ completion: @escaping @Sendable (HandlerOutcome) -> Void) throws {
        let user = try requireUser(context)
        let snapID = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        let now = clock.now()
        let requestID = context.requestID
        let version = context.protocolVersion
        storage.write({ [images] store -> (reply: HandlerOutcome, posterID: Int64) in
            try store.claimView(snapID: snapID, viewerID: user.id, now: now) { listing, sha256, stored in
                let image = try images.bytes(sha256: sha256) { try stored.array() }
                let head = SnapImage.frameHead(requestID: requestID, version: version, snap: Self.info(listing), sha256: sha256,
                                               imageByteCount: image.count)
                return (HandlerOutcome(frameHead: head, image: image), listing.posterID)
            }
        }, completion: { [self] result in
            let opened = if case .success = result { true } else { false }
            if case .success(let claimed) = result {
                // The viewer's snap turned read, and the poster's count of opens moved.
                changes.bump(for: user.id)
                changes.bump(for: claimed.posterID)
            }
            completion(outcome(result.map(\.reply), context))
            // Debug, not info: this runs on the writer thread, up to a batch's worth at a time.
            if opened { logger.debug("\(user.name) opened snap \(snapID)") }
        })
    }

    private func outcome(_ result: Result<HandlerOutcome, any Error>, _ context: RequestContext) -> HandlerOutcome {
        switch result {
        case .success(let reply): reply
        case .failure(let error): failure(error, context)
        }
    }
}
