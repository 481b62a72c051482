import Wire

/// The two requests whose reply carries a stored image: GetPhoto and OpenSnap.
///
/// Each runs as one storage job that checks the request, lays out the reply frame and copies the
/// image into it straight from the database pages; the job's completion hands the frame to the
/// connection. No handler thread sits in between, and the image is copied once on its way from
/// the database to TLS (see docs/benchmarks.md for what each hop and copy cost).
extension RequestHandler {
    /// A photo of the user's albums, full size or thumbnail; pending and failed photos have no bytes yet.
    func sendPhoto(_ request: GetPhoto, _ context: RequestContext, _ completion: @escaping @Sendable (HandlerOutcome) -> Void) throws {
        let user = try requireUser(context)
        let photoID = try Self.storageID(request.photoID, orThrow: Self.noPhoto(request.photoID))
        let requestID = context.requestID
        storage.read({ store -> [UInt8] in
            try store.withPhotoBytes(id: photoID, userID: user.id, thumbnail: request.variant == .thumbnail) {
                photo, sha256, image in
                try PhotoImage.frame(requestID: requestID, photo: Self.info(photo), variant: request.variant, sha256: sha256,
                                     imageByteCount: image.count, fill: image.copy(into:))
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
        storage.write({ store -> (frame: [UInt8], posterID: Int64) in
            try store.claimView(snapID: snapID, viewerID: user.id, now: now) { listing, sha256, image in
                (try SnapImage.frame(requestID: requestID, snap: Self.info(listing), sha256: sha256,
                                     imageByteCount: image.count, fill: image.copy(into:)), listing.posterID)
            }
        }, completion: { [self] result in
            let opened = if case .success = result { true } else { false }
            if case .success(let claimed) = result {
                // The viewer's snap turned read, and the poster's count of opens moved.
                changes.bump(for: user.id)
                changes.bump(for: claimed.posterID)
            }
            completion(outcome(result.map(\.frame), context))
            // Debug, not info: this runs on the writer thread, up to a batch's worth at a time.
            if opened { logger.debug("\(user.name) opened snap \(snapID)") }
        })
    }

    private func outcome(_ result: Result<[UInt8], any Error>, _ context: RequestContext) -> HandlerOutcome {
        switch result {
        case .success(let frame): HandlerOutcome(frame: frame)
        case .failure(let error): failure(error, context)
        }
    }
}
