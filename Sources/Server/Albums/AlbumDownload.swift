/// One album download as a value: given what has happened, which steps come next.
///
/// `Albums` performs the steps (search the provider, fetch a photo, write the outcome)
/// and reports each result back; this type decides the order and keeps the number of fetches in
/// flight bounded. Everything it needs to know about storage arrives as an `AlbumRecord`, so the
/// rules can be tested without a provider, a database or a clock.
///
/// The life of a download: load the album → if its collection was never searched, search →
/// reload → fetch every pending slot (at most `maximumInFlight` at once) → complete (let storage
/// settle ready or failed). A download started after a restart takes the same path, so an album
/// cut anywhere resumes where it stopped.
struct AlbumDownload {
    /// A search the downloader must run, for one collection of one album.
    struct SearchRequest: Equatable {
        var pinID: Int64
        var generation: Int64
        var latitude: Double
        var longitude: Double
        var page: Int
        var perPage: Int
    }

    enum Action: Equatable {
        /// Ask the provider for the collection's page, record the answer, then report `loaded`.
        case search(SearchRequest)
        /// End the album as failed with this message (then the download is over).
        case fail(pinID: Int64, generation: Int64, message: String)
        /// Fetch one placeholder's bytes, store them, then report `fetched`.
        case fetch(PhotoRecord)
        /// No fetch is left: let storage settle the album's final state (then the download is over).
        case complete(pinID: Int64)
    }

    /// The photo source this server uses now; an album from another cannot be resumed.
    let provider: String
    let maximumInFlight: Int
    private(set) var isFinished = false
    private var hasSearched = false
    private var queue: [PhotoRecord] = []
    private var inFlight: Set<Int64> = []

    init(provider: String, maximumInFlight: Int) {
        self.provider = provider
        self.maximumInFlight = max(1, maximumInFlight)
    }

    /// True while fetches started by `fetch` actions have not been reported back.
    var hasFetchesInFlight: Bool { !inFlight.isEmpty }

    /// The album as storage has it now (nil when its pin is gone).
    mutating func loaded(_ album: AlbumRecord?) -> [Action] {
        guard !isFinished, let album, album.state == .downloading else { return finish() }
        guard album.provider == provider else {
            isFinished = true
            return [
                .fail(
                    pinID: album.pin.id, generation: album.generation,
                    message: "this album was being fetched from the \(album.provider) photo source, but the server "
                        + "now uses \(provider); take a New Collection to fetch it again")
            ]
        }
        guard album.searched else {
            // A search whose answer could not be recorded (a newer collection replaced it) must
            // not be repeated forever.
            guard !hasSearched else { return finish() }
            hasSearched = true
            return [
                .search(
                    SearchRequest(
                        pinID: album.pin.id, generation: album.generation, latitude: album.pin.latitude,
                        longitude: album.pin.longitude, page: album.page, perPage: album.perPage))
            ]
        }
        queue = album.photos.filter { $0.state == .pending && !inFlight.contains($0.id) }
        return startFetches(pinID: album.pin.id)
    }

    /// The search failed: the album fails with the provider's message.
    mutating func searchFailed(_ request: SearchRequest, message: String) -> [Action] {
        guard !isFinished else { return [] }
        isFinished = true
        return [.fail(pinID: request.pinID, generation: request.generation, message: message)]
    }

    /// One fetch is over (its outcome stored, or dropped because its slot is gone).
    mutating func fetched(_ photo: PhotoRecord) -> [Action] {
        inFlight.remove(photo.id)
        guard !isFinished else { return [] }
        return startFetches(pinID: photo.pinID)
    }

    private mutating func startFetches(pinID: Int64) -> [Action] {
        var actions: [Action] = []
        while inFlight.count < maximumInFlight, !queue.isEmpty {
            let next = queue.removeFirst()
            inFlight.insert(next.id)
            actions.append(.fetch(next))
        }
        if queue.isEmpty && inFlight.isEmpty {
            isFinished = true
            actions.append(.complete(pinID: pinID))
        }
        return actions
    }

    private mutating func finish() -> [Action] {
        isFinished = true
        return []
    }
}
