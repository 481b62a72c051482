import Wire

// What storage holds, as the protocol tells it: the records the handlers (and the offline
// commands) turn into replies, each conversion written once.

extension SnapInfo {
    init(_ listing: SnapListing) {
        self.init(
            id: UInt64(listing.id), feed: listing.feedName, poster: listing.posterName, postedAt: listing.postedAt,
            expiresAt: listing.expiresAt, state: listing.status,
            imageKind: listing.format, byteCount: UInt32(clamping: listing.byteCount),
            width: UInt32(clamping: listing.width), height: UInt32(clamping: listing.height),
            openedCount: UInt32(clamping: listing.openedCount), note: listing.note)
    }
}

extension PinInfo {
    init(_ pin: PinRecord) {
        self.init(
            id: UInt64(pin.id), latitude: pin.latitude, longitude: pin.longitude, createdAt: pin.createdAt,
            albumState: pin.albumState,
            expected: UInt32(clamping: pin.expected), done: UInt32(clamping: pin.done))
    }
}

extension PhotoInfo {
    init(_ photo: PhotoRecord) {
        self.init(
            id: UInt64(photo.id), pinID: UInt64(photo.pinID), position: UInt32(clamping: photo.position),
            state: photo.state,
            title: photo.source.title, tags: photo.source.tags, place: photo.source.place,
            latitude: photo.source.latitude, longitude: photo.source.longitude,
            width: UInt32(clamping: photo.width), height: UInt32(clamping: photo.height),
            byteCount: UInt32(clamping: photo.byteCount))
    }
}

extension Album {
    init(_ album: AlbumRecord) {
        self.init(
            pinID: UInt64(album.pin.id), state: album.state,
            expected: UInt32(clamping: album.pin.expected), done: UInt32(clamping: album.pin.done),
            error: album.state == .failed ? album.error.truncatedToUTF8Count(FieldLimits.providerError) : "",
            photos: album.photos.map(PhotoInfo.init))
    }
}

extension MovieInfo {
    init(_ movie: MovieRecord) {
        // Stored sales are never negative (a CHECK constraint), so the conversion is exact.
        self.init(title: movie.title, genre: movie.genre, sales: UInt64(max(0, movie.sales)))
    }
}

extension RosterMember {
    /// A roster entry as the protocol (and `RosterReport`) tells it.
    init(_ record: RosterMemberRecord) {
        let status: RosterStatus =
            if record.account == nil { .notRegistered } else if record.hasOneTimePassword { .oneTimePassword } else if record.lastSignIn > 0
            { .signedIn } else { .notSignedIn }
        self.init(
            name: record.entry.name, displayName: record.entry.displayName, isAdmin: record.entry.isAdmin,
            addedAt: record.entry.addedAt, account: record.account ?? "", status: status, lastSignIn: record.lastSignIn)
    }
}

extension ClassRoleName {
    /// A member's role, or `none` for a site admin who is not a member.
    init(_ role: ClassRole?) {
        switch role {
        case nil: self = .none
        case .student?: self = .student
        case .ta?: self = .ta
        case .instructor?: self = .instructor
        case .owner?: self = .owner
        }
    }

    /// The role it names; nil for `none`.
    var role: ClassRole? {
        switch self {
        case .none: nil
        case .student: .student
        case .ta: .ta
        case .instructor: .instructor
        case .owner: .owner
        }
    }
}

extension ClassInfo {
    init(_ record: ClassRecord, role: ClassRole?, isCurrent: Bool, unread: Int64) {
        self.init(
            handle: record.handle, name: record.name, role: ClassRoleName(role), isCurrent: isCurrent,
            unreadCount: UInt32(clamping: unread), hasEnded: record.hasEnded)
    }
}

extension CurrentClass {
    init(_ record: ClassRecord, role: ClassRole?) { self.init(id: record.id, handle: record.handle, role: role) }
}
