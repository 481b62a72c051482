import Foundation
import Wire
import Imaging
import Synchronization

/// Fetches pins' albums in the background, on the server, so no client has to stay connected.
///
/// One download per album at a time: the provider's search first (the answer becomes one
/// placeholder row per photo, so the expected count is known before any image arrives), then
/// the images, at most `fetchesPerAlbum` at once per album and `fetchesPerServer` at once in
/// all. Each image is checked against the server's image limits, given a thumbnail, and written
/// with its thumbnail through the storage writer (group commit). The order of the steps is
/// decided by `AlbumDownload`; this type performs them.
///
/// Threads: downloads run as Swift tasks on the downloader's own executor (two threads), never on
/// the event loop, the request handlers' threads or a storage thread; decoding and thumbnailing
/// happen there too, and storage work is awaited through `StorageExecutor`.
///
/// Everything is in SQLite, so a restart loses nothing: `resumeUnfinished` starts every album
/// left downloading again, and its pending slots are fetched anew.
public final class AlbumDownloader: Sendable {
    /// Photos asked for per collection (Flickr's `per_page`): a 3x7 grid, as many VirtualTourist
    /// apps show.
    public static let photosPerAlbum = 21
    /// Image fetches in flight for one album.
    static let fetchesPerAlbum = 4
    /// Image fetches in flight for the whole server.
    static let fetchesPerServer = 8
    /// Searches in flight for the whole server (many albums resume at once after a restart).
    static let searchesPerServer = 4
    /// The longest a request waits for its album's search before answering anyway (a client
    /// gives up on a reply after 15 s; a slow photo source must not make dropping a pin fail).
    public static let searchWait = Duration.seconds(5)
    /// The longest a provider photo id or reference may be; longer ones are skipped as broken.
    static let maximumReferenceBytes = 4096

    /// The photo source in use.
    public let provider: any PhotoProvider
    /// Names places for photos whose provider gives none, and describes pins for Random Pin.
    public let gazetteer: Gazetteer
    private let storage: StorageExecutor
    private let limits: ImageLimits
    private let logger: Logger
    private let clock: WallClock
    private let executor: ThreadPoolExecutor
    private let permits = FetchPermits(limit: AlbumDownloader.fetchesPerServer)
    private let searchPermits = FetchPermits(limit: AlbumDownloader.searchesPerServer)
    private let gate = FetchGate()
    private let jobs = Mutex(Jobs())
    private let running = DispatchGroup()

    private struct Job {
        var token: UInt64
        var task: Task<Void, Never>
    }

    private struct Jobs {
        var byPin: [Int64: Job] = [:]
        var nextToken: UInt64 = 0
        var isStopped = false
    }

    /// Raised with every photo stored (see `ImageCeiling`).
    private let imageCeiling: ImageCeiling

    public init(storage: StorageExecutor, provider: any PhotoProvider, gazetteer: Gazetteer, limits: ImageLimits,
                imageCeiling: ImageCeiling = ImageCeiling(), logger: Logger,
                clock: WallClock = .system) {
        self.storage = storage
        self.imageCeiling = imageCeiling
        self.provider = provider
        self.gazetteer = gazetteer
        self.limits = limits
        self.logger = logger
        self.clock = clock
        self.executor = ThreadPoolExecutor(threads: 2, name: "album")
    }

    /// Every download holds this object, so when it goes no album job can arrive any more.
    deinit { executor.shutdown() }

    // MARK: Starting and stopping

    /// Starts the download of a pin's album (replacing any still running for it) and returns
    /// once its search has answered and been recorded, failed, or the download stopped, or
    /// after `searchWait` at most. The download goes on in the background after this returns.
    func start(pinID: Int64) async {
        let (searched, signal) = AsyncStream<Void>.makeStream()
        launch(pinID: pinID, replacing: true, searched: signal)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in searched {} }
            group.addTask { try? await Task.sleep(for: Self.searchWait) }
            // Whichever ends first; cancelling the other ends it at once (the download itself
            // is not a child of this group and carries on).
            await group.next()
            group.cancelAll()
        }
    }

    /// Starts every album left downloading (at server start: after a crash or a stop mid-download).
    func resumeUnfinished() {
        Task(executorPreference: executor) {
            do {
                let pins = try await self.storage.read { store in try store.downloadingAlbumPins() }
                guard !pins.isEmpty else { return }
                self.logger.info("resuming \(pins.count) unfinished album\(pins.count == 1 ? "" : "s")")
                for pinID in pins {
                    // A download a client started meanwhile is already doing the work.
                    self.launch(pinID: pinID, replacing: false, searched: nil)
                }
            } catch {
                self.logger.error("could not look for unfinished albums: \(error)")
            }
        }
    }

    /// Stops a pin's download (its pin was deleted); results still in flight find no slot.
    func cancel(pinID: Int64) {
        let job = jobs.withLock { $0.byPin.removeValue(forKey: pinID) }
        job?.task.cancel()
    }

    /// Stops every download and waits (a few seconds at most) for them to wind down; albums stay
    /// downloading in storage and resume at the next start.
    public func shutdown() {
        let tasks = jobs.withLock { jobs -> [Task<Void, Never>] in
            jobs.isStopped = true
            defer { jobs.byPin.removeAll() }
            return jobs.byPin.values.map(\.task)
        }
        for task in tasks { task.cancel() }
        // Fetches wait on the gate and permits cancellably; only a provider call that ignores
        // cancellation can hold us here, and then not for long.
        if running.wait(timeout: .now() + 5) == .timedOut {
            logger.warning("album downloads did not stop within 5 s; leaving them behind")
        }
        // The album threads end in deinit, once the last download has let go of this object:
        // a download left behind still gets to finish instead of being stranded mid-way.
    }

    // MARK: Holding fetches (operators, tests)

    /// Holds every image fetch that has not started; searches still run.
    public func pauseFetches() { gate.pause() }
    /// Lets `count` held (or future) fetches through while paused.
    public func allowFetches(_ count: Int) { gate.allow(count) }
    /// Lets every fetch through again.
    public func resumeFetches() { gate.open() }

    // MARK: The download

    private func launch(pinID: Int64, replacing: Bool, searched: AsyncStream<Void>.Continuation?) {
        var replaced: Task<Void, Never>?
        let started = jobs.withLock { jobs -> Bool in
            guard !jobs.isStopped else { return false }
            if let existing = jobs.byPin[pinID] {
                guard replacing else { return false }
                replaced = existing.task
            }
            jobs.nextToken += 1
            let token = jobs.nextToken
            running.enter()
            // The job deregisters itself under this same lock, so it cannot do so before it is
            // registered below.
            let task = Task(executorPreference: executor) {
                await self.download(pinID: pinID, searched: searched)
                self.jobs.withLock { jobs in
                    if jobs.byPin[pinID]?.token == token { jobs.byPin.removeValue(forKey: pinID) }
                }
                self.running.leave()
            }
            jobs.byPin[pinID] = Job(token: token, task: task)
            return true
        }
        replaced?.cancel()
        if !started { searched?.finish() }
    }

    private func download(pinID: Int64, searched: AsyncStream<Void>.Continuation?) async {
        defer { searched?.finish() }
        var machine = AlbumDownload(provider: provider.name, maximumInFlight: Self.fetchesPerAlbum)
        var actions = machine.loaded(await loadAlbum(pinID))
        await withTaskGroup(of: PhotoRecord.self) { group in
            while true {
                if Task.isCancelled {
                    group.cancelAll()
                    return
                }
                guard !actions.isEmpty else {
                    guard machine.hasFetchesInFlight, let photo = await group.next() else { return }
                    actions = machine.fetched(photo)
                    continue
                }
                switch actions.removeFirst() {
                case .search(let request):
                    switch await search(request) {
                    case .recorded:
                        searched?.finish()
                        actions += machine.loaded(await loadAlbum(pinID))
                    case .failed(let message):
                        actions += machine.searchFailed(request, message: message)
                    case .stopped:
                        return
                    }
                case .fail(let pinID, let generation, let message):
                    let now = clock.now()
                    if await write("failing album", { store in
                        try store.failAlbum(pinID: pinID, generation: generation, message: message, at: now)
                    }) == true {
                        logger.info("album of pin \(pinID) failed: \(message)")
                    }
                case .fetch(let photo):
                    group.addTask {
                        await self.fetch(photo)
                        return photo
                    }
                case .complete(let pinID):
                    let now = clock.now()
                    _ = await write("completing album") { store in try store.completeAlbumIfDone(pinID: pinID, at: now) }
                }
            }
        }
    }

    private func loadAlbum(_ pinID: Int64) async -> AlbumRecord? {
        do {
            return try await storage.read { store in try store.albumForDownload(pinID: pinID) }
        } catch {
            if !Task.isCancelled { logger.error("album worker: reading album of pin \(pinID): \(error)") }
            return nil
        }
    }

    private enum SearchOutcome {
        case recorded
        case failed(String)
        case stopped
    }

    /// Runs the collection's search and records its answer (placeholders, or empty).
    private func search(_ request: AlbumDownload.SearchRequest) async -> SearchOutcome {
        do {
            try await searchPermits.acquire()
        } catch {
            return .stopped
        }
        var answer = await searchPage(request, page: request.page)
        if case .failure(let error) = answer, error.kind == .pageOutOfRange, request.page > 1 {
            // The provider serves fewer pages than it reported (its result cap moved): page 1
            // always exists.
            answer = await searchPage(request, page: 1)
        }
        searchPermits.release()
        guard !Task.isCancelled else { return .stopped }
        let result: PhotoSearchPage
        switch answer {
        case .success(let page): result = page
        case .failure(let error):
            let message = ProviderText.clean(error.message, maxBytes: FieldLimits.providerError)
            return .failed(message.isEmpty ? "the \(provider.name) photo source failed without saying why" : message)
        }
        let search = AlbumSearch(pinID: request.pinID, generation: request.generation,
                                 page: result.page >= 1 ? result.page : request.page, pages: max(0, result.pages),
                                 total: max(0, result.total), slots: slots(from: result, for: request), at: clock.now())
        guard await write("recording album search", { store in try store.recordSearch(search) }) == true else { return .stopped }
        logger.debug("album of pin \(request.pinID): page \(search.page) of \(search.pages), \(search.slots.count) photos")
        return .recorded
    }

    private func searchPage(_ request: AlbumDownload.SearchRequest, page: Int) async -> Result<PhotoSearchPage, ProviderError> {
        do {
            return .success(try await provider.search(latitude: request.latitude, longitude: request.longitude,
                                                      page: page, perPage: request.perPage))
        } catch {
            return .failure(error)
        }
    }

    /// One placeholder per usable photo of the answer, in its order: duplicates and photos with
    /// absurd ids or references are skipped, text is cleaned and cut to its wire field, and a
    /// photo the provider did not place is named from the gazetteer.
    private func slots(from result: PhotoSearchPage, for request: AlbumDownload.SearchRequest) -> [PhotoSlot] {
        var seen = Set<String>()
        var slots: [PhotoSlot] = []
        for photo in result.photos where slots.count < request.perPage {
            guard !photo.id.isEmpty, photo.id.utf8.count <= Self.maximumReferenceBytes,
                  photo.reference.utf8.count <= Self.maximumReferenceBytes, seen.insert(photo.id).inserted else { continue }
            // A photo without a usable position is shown at its pin.
            let placed = photo.latitude.isFinite && photo.longitude.isFinite && abs(photo.latitude) <= 90 && abs(photo.longitude) <= 180
            let latitude = placed ? photo.latitude : request.latitude
            let longitude = placed ? photo.longitude : request.longitude
            var place = ProviderText.clean(photo.place, maxBytes: FieldLimits.placeName)
            if place.isEmpty {
                place = ProviderText.clean(gazetteer.placeName(latitude: latitude, longitude: longitude) ?? "",
                                           maxBytes: FieldLimits.placeName)
            }
            slots.append(PhotoSlot(providerPhotoID: photo.id, reference: photo.reference,
                                   title: ProviderText.clean(photo.title, maxBytes: FieldLimits.photoTitle),
                                   tags: ProviderText.clean(photo.tags.lowercased(), maxBytes: FieldLimits.photoTags),
                                   place: place, latitude: latitude, longitude: longitude))
        }
        return slots
    }

    /// Fetches one placeholder's bytes and stores them with a thumbnail, or marks it failed.
    private func fetch(_ photo: PhotoRecord) async {
        do {
            try await gate.pass()
            try await permits.acquire()
        } catch {
            return
        }
        var answer = await fetchBytes(photo)
        if case .failure(let error) = answer, error.kind == .transport || error.kind == .unavailable, !Task.isCancelled {
            // One more try for a dropped connection or a busy service; anything else is final.
            answer = await fetchBytes(photo)
        }
        permits.release()
        // A cancelled fetch (pin deleted, server stopping) leaves the slot pending: it is not the
        // photo's fault, and a restart fetches it again.
        guard !Task.isCancelled else { return }
        let now = clock.now()
        switch answer {
        case .success(let bytes):
            do {
                let prepared = try Thumbnail.prepare(photoID: photo.id, bytes: bytes, limits: limits)
                // Raised before the photo is stored, so no reply can outgrow a reservation.
                imageCeiling.noteStored(max(prepared.image.count, prepared.thumbnail.count))
                _ = await write("storing photo") { store in try store.storePhotoImage(prepared, at: now) }
            } catch {
                let message = "the photo is not a usable image: \(error.description)"
                _ = await write("marking photo failed") { store in try store.failPhoto(id: photo.id, message: message, at: now) }
            }
        case .failure(let error):
            let message = ProviderText.clean(error.message, maxBytes: FieldLimits.providerError)
            logger.debug("photo \(photo.id) of pin \(photo.pinID) failed: \(message)")
            _ = await write("marking photo failed") { store in try store.failPhoto(id: photo.id, message: message, at: now) }
        }
    }

    private func fetchBytes(_ photo: PhotoRecord) async -> Result<[UInt8], ProviderError> {
        let described = ProviderPhoto(id: photo.providerPhotoID, title: photo.title, tags: photo.tags, place: photo.place,
                                      latitude: photo.latitude, longitude: photo.longitude, reference: photo.reference)
        do {
            return .success(try await provider.fetchImage(described))
        } catch {
            return .failure(error)
        }
    }

    /// A storage write from the worker; failures are logged (the album stays downloading and
    /// resumes at the next start) unless the download was cancelled meanwhile.
    private func write<T: Sendable>(_ what: String, _ job: @escaping @Sendable (any SnapshareStore) throws -> T) async -> T? {
        do {
            return try await storage.write(job)
        } catch {
            if !Task.isCancelled { logger.error("album worker: \(what): \(error)") }
            return nil
        }
    }
}
