import SQL
import Wire

/// The records of the store protocols, read from rows by column name, and the rules on them
/// that every concern of `SQLStore` shares.
enum StoreRows {
    static func user(_ row: any SQLRow) -> UserRecord {
        UserRecord(
            id: row.int64("id"), name: row.string("name"), passwordHash: row.string("password_hash"),
            isAdmin: row.bool("is_admin"), createdAt: row.int64("created_at"),
            isDisabled: row.bool("disabled"), mustChangePassword: row.bool("must_change_password"),
            oneTimeHash: row.string("one_time_hash"))
    }

    static func movie(_ row: any SQLRow) -> MovieRecord {
        MovieRecord(title: row.string("title"), genre: row.string("genre"), sales: row.int64("sales"))
    }

    static func snapListing(_ row: any SQLRow) throws -> SnapListing {
        guard let status = SnapState(rawValue: UInt8(truncatingIfNeeded: row.int64("status"))),
            let format = ImageFormat(rawValue: UInt8(truncatingIfNeeded: row.int64("format")))
        else {
            throw StoreError(.corrupt, "snap \(row.int64("id")) has an unknown status or format")
        }
        return SnapListing(
            id: row.int64("id"), feedName: row.string("feed_name"), posterName: row.string("poster_name"),
            postedAt: row.int64("posted_at"), expiresAt: row.int64("expires_at"), status: status,
            byteCount: row.int64("byte_count"), width: row.int("width"), height: row.int("height"),
            format: format, posterID: row.int64("poster_id"), openedCount: row.int("opened_count"))
    }

    static func pin(_ row: any SQLRow) throws -> PinRecord {
        guard let state = AlbumState(rawValue: UInt8(truncatingIfNeeded: row.int64("state"))) else {
            throw StoreError(.corrupt, "album of pin \(row.int64("id")) has an unknown state")
        }
        return PinRecord(
            id: row.int64("id"), userID: row.int64("user_id"), latitude: row.double("latitude"),
            longitude: row.double("longitude"), createdAt: row.int64("created_at"), albumState: state,
            expected: row.int("expected"), done: row.int("done"))
    }

    static func photo(_ row: any SQLRow) throws -> PhotoRecord {
        guard let state = PhotoState(rawValue: UInt8(truncatingIfNeeded: row.int64("state"))) else {
            throw StoreError(.corrupt, "photo \(row.int64("id")) has an unknown state")
        }
        return PhotoRecord(
            id: row.int64("id"), pinID: row.int64("pin_id"), position: row.int("position"), state: state,
            source: ProviderPhoto(
                id: row.string("provider_photo_id"), title: row.string("title"),
                tags: row.string("tags"), place: row.string("place"), latitude: row.double("latitude"),
                longitude: row.double("longitude"), reference: row.string("reference")),
            width: row.int("width"), height: row.int("height"), byteCount: row.int("byte_count"), error: row.string("error"))
    }

    static func album(_ row: any SQLRow, pin: PinRecord, photos: [PhotoRecord]) -> AlbumRecord {
        AlbumRecord(
            pin: pin, error: row.string("error"), provider: row.string("provider"),
            searched: row.bool("searched"), page: row.int("page"), pages: row.int("pages"),
            perPage: row.int("per_page"), total: row.int("total"), generation: row.int64("generation"),
            photos: photos)
    }

    /// Throws unless `photo` has its bytes: a pending or failed photo has none to send.
    static func requireReady(_ photo: PhotoRecord) throws {
        switch photo.state {
        case .pending: throw StoreError(.notFound, "photo \(photo.id) is still downloading; try again when the album is ready")
        case .failed: throw StoreError(.notFound, "photo \(photo.id) could not be downloaded: \(photo.error)")
        case .ready: break
        }
    }

    /// Why an album whose every photo failed has failed: the first photo's reason.
    static func albumFailure(failedPhotos: Int64, firstReason: String?) -> String {
        let noun = failedPhotos == 1 ? "the album's photo" : "any of the album's \(failedPhotos) photos"
        return "could not download \(noun): \(firstReason ?? "unknown error")"
    }

    // MARK: The view-once gate, for both engines' `claimView`

    /// The checks before the claim, in their order after `notFound`: the viewer's own snap
    /// (`ownSnap`), then an expired or erased one (`expired`).
    static func checkClaim(_ listing: SnapListing, erased: Bool, viewerID: Int64, now: Int64) throws {
        guard listing.posterID != viewerID else {
            throw StoreError(.ownSnap, "snap \(listing.id) is yours: posters cannot open their own snaps")
        }
        guard listing.expiresAt > now, !erased else { throw StoreError(.expired, "snap \(listing.id) has expired") }
    }

    /// What the primary-key conflict of the view row means.
    static func alreadyViewed(_ snapID: Int64) -> StoreError {
        StoreError(.alreadyViewed, "you already opened snap \(snapID); each snap opens once per person")
    }

    /// The listing the winner gets, once its view row is in. A missing image with the snap not
    /// marked erased means a purge is racing the claim or the row was damaged: nobody gets bytes,
    /// and the throw rolls the claim back.
    static func claimed(_ listing: SnapListing, hasImage: Bool) throws -> SnapListing {
        guard hasImage else { throw StoreError(.expired, "snap \(listing.id) has no image any more") }
        var listing = listing
        listing.status = .read
        return listing
    }
}
