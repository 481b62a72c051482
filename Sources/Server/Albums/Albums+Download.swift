import Foundation
import Imaging
import Synchronization
import Wire

/// Performing a download: the steps `AlbumDownload` decides, each against the photo source or
/// storage.
extension Albums {

    func launch(pinID: Int64, initial: AlbumRecord?, replacing: Bool, searched: AsyncStream<AlbumRecord>.Continuation?) {
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
                await self.download(pinID: pinID, initial: initial, searched: searched)
                // Replaced, cancelled with its pin, or stopped with the server: not finished.
                if !Task.isCancelled { self.downloadsFinished.add(1, ordering: .relaxed) }
                self.jobs.withLock { jobs in
                    if jobs.byPin[pinID]?.token == token { jobs.byPin.removeValue(forKey: pinID) }
                }
                self.running.leave()
            }
            jobs.byPin[pinID] = Job(token: token, task: task)
            downloadsStarted.add(1, ordering: .relaxed)
            return true
        }
        replaced?.cancel()
        if !started { searched?.finish() }
    }

    /// Downloads under the album's lease: none when another instance holds it; renewed every
    /// third of its length while the download runs, and the download stops if it is lost.
    private func download(pinID: Int64, initial: AlbumRecord?, searched: AsyncStream<AlbumRecord>.Continuation?) async {
        guard await renewLease(pinID, now: clock.now()) else {
            searched?.finish()
            return
        }
        await withTaskGroup(of: Void.self) { both in
            both.addTask { [leaseMilliseconds] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(leaseMilliseconds / 3))
                    guard !Task.isCancelled else { return }
                    guard await self.renewLease(pinID, now: self.clock.now()) else {
                        self.logger.info("the album of pin \(pinID) is another instance's now; stopping here")
                        return
                    }
                }
            }
            both.addTask { await self.perform(pinID: pinID, initial: initial, searched: searched) }
            // Whichever ends first (the download, or a lost lease) ends the other.
            await both.next()
            both.cancelAll()
        }
    }

    private func perform(pinID: Int64, initial: AlbumRecord?, searched: AsyncStream<AlbumRecord>.Continuation?) async {
        defer { searched?.finish() }
        var machine = AlbumDownload(provider: provider.name, maximumInFlight: Self.fetchesPerAlbum)
        let album: AlbumRecord?
        if let initial { album = initial } else { album = await loadAlbum(pinID) }
        var actions = machine.loaded(album)
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
                    case .recorded(let album):
                        searched?.yield(album)
                        searched?.finish()
                        actions += machine.loaded(album)
                    case .failed(let message):
                        actions += machine.searchFailed(request, message: message)
                    case .stopped:
                        return
                    }
                case .fail(let pinID, let generation, let message):
                    let now = clock.now()
                    let failed = await write("failing album") { store -> AlbumRecord? in
                        guard try store.failAlbum(pinID: pinID, generation: generation, message: message, at: now) else { return nil }
                        return try store.albumForDownload(pinID: pinID)
                    }
                    if let album = failed ?? nil {
                        logger.info("album of pin \(pinID) failed: \(message)")
                        searched?.yield(album)
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

    /// Takes or renews this instance's lease on the album; false when another instance holds it
    /// or the album no longer downloads.
    private func renewLease(_ pinID: Int64, now: Int64) async -> Bool {
        let (owner, until) = (instanceID, now + leaseMilliseconds)
        return await write("leasing album") { store in
            try store.claimAlbumLease(pinID: pinID, owner: owner, now: now, until: until)
        } ?? false
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
        /// The answer is stored; the album as it left it.
        case recorded(AlbumRecord)
        case failed(String)
        case stopped
    }

    /// Runs the collection's search and records its answer (placeholders, or empty), reading
    /// the album back in the same write.
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
        let search = AlbumSearch(
            pinID: request.pinID, generation: request.generation,
            page: result.page >= 1 ? result.page : request.page, pages: max(0, result.pages),
            total: max(0, result.total), slots: slots(from: result, for: request), at: clock.now())
        let recorded = await write("recording album search") { store -> AlbumRecord? in
            guard try store.recordSearch(search) else { return nil }
            return try store.albumForDownload(pinID: search.pinID)
        }
        guard let album = recorded ?? nil else { return .stopped }
        logger.debug("album of pin \(request.pinID): page \(search.page) of \(search.pages), \(search.slots.count) photos")
        return .recorded(album)
    }

    private func searchPage(_ request: AlbumDownload.SearchRequest, page: Int) async -> Result<PhotoSearchPage, ProviderError> {
        do {
            return .success(
                try await provider.search(
                    latitude: request.latitude, longitude: request.longitude,
                    page: page, perPage: request.perPage))
        } catch {
            return .failure(error)
        }
    }

    /// One placeholder per usable photo of the answer, in its order: duplicates and photos with
    /// absurd ids or references are skipped, text is cleaned and cut to its wire field, and a
    /// photo the provider did not place is named from the gazetteer.
    private func slots(from result: PhotoSearchPage, for request: AlbumDownload.SearchRequest) -> [ProviderPhoto] {
        var seen = Set<String>()
        var slots: [ProviderPhoto] = []
        for photo in result.photos where slots.count < request.perPage {
            guard !photo.id.isEmpty, photo.id.utf8.count <= Self.maximumReferenceBytes,
                photo.reference.utf8.count <= Self.maximumReferenceBytes, seen.insert(photo.id).inserted
            else { continue }
            // A photo without a usable position is shown at its pin.
            let placed = photo.latitude.isFinite && photo.longitude.isFinite && abs(photo.latitude) <= 90 && abs(photo.longitude) <= 180
            let latitude = placed ? photo.latitude : request.latitude
            let longitude = placed ? photo.longitude : request.longitude
            var place = ProviderText.clean(photo.place, maxBytes: FieldLimits.placeName)
            if place.isEmpty {
                place = ProviderText.clean(
                    gazetteer.placeName(latitude: latitude, longitude: longitude) ?? "",
                    maxBytes: FieldLimits.placeName)
            }
            slots.append(
                ProviderPhoto(
                    id: photo.id, title: ProviderText.clean(photo.title, maxBytes: FieldLimits.photoTitle),
                    tags: ProviderText.clean(photo.tags.lowercased(), maxBytes: FieldLimits.photoTags),
                    place: place, latitude: latitude, longitude: longitude, reference: photo.reference))
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
        do {
            return .success(try await provider.fetchImage(photo.source))
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
