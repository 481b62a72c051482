import Crypto
import Foundation
import Imaging
import Synchronization
import Wire

/// The album lifecycle: dropping a pin, its album's download, New Collection and its page,
/// deleting a pin, Random Pin and its description. Request handlers call these with domain
/// values and translate to and from the wire; nothing outside this folder reads the photo
/// source or the gazetteer.
///
/// Albums are fetched in the background, on the server, so no client has to stay connected.
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
/// Everything is in storage, so a restart loses nothing: `resumeUnfinished` starts every album
/// left downloading again, and its pending slots are fetched anew.
///
/// Several instances on one database: a download first takes the album's lease (storage decides
/// one winner) and renews it while it runs, so exactly one instance fetches an album; every
/// `leaseScanInterval` each instance looks for albums whose lease ran out (their instance
/// stopped or died) and finishes them.
package final class Albums: Sendable {
    /// Photos asked for per collection (Flickr's `per_page`): a 3x7 grid, as many VirtualTourist
    /// apps show.
    package static let photosPerAlbum = 21
    /// Image fetches in flight for one album.
    static let fetchesPerAlbum = 4
    /// Image fetches in flight for the whole server.
    static let fetchesPerServer = 8
    /// Searches in flight for the whole server (many albums resume at once after a restart).
    static let searchesPerServer = 4
    /// The longest a request waits for its album's search before answering anyway (a client
    /// gives up on a reply after 15 s; a slow photo source must not make dropping a pin fail).
    static let searchWait = Duration.seconds(5)
    /// The longest a provider photo id or reference may be; longer ones are skipped as broken.
    static let maximumReferenceBytes = 4096
    /// The most pins one user may keep: far more than a map can show, few enough that a
    /// listing and the albums behind it stay small.
    package static let maxPinsPerUser = 1_000

    /// The photo source in use.
    let provider: any PhotoProvider
    /// Names places for photos whose provider gives none, and describes pins for Random Pin.
    let gazetteer: Gazetteer
    let storage: StorageExecutor
    let limits: ImageLimits
    let logger: Logger
    let clock: WallClock
    let executor: ThreadPoolExecutor
    let permits = FetchPermits(limit: Albums.fetchesPerServer)
    let searchPermits = FetchPermits(limit: Albums.searchesPerServer)
    let gate = FetchGate()
    let jobs = Mutex(Jobs())
    let running = DispatchGroup()

    struct Job {
        var token: UInt64
        var task: Task<Void, Never>
    }

    struct Jobs {
        var byPin: [Int64: Job] = [:]
        var nextToken: UInt64 = 0
        var isStopped = false
    }

    /// Raised with every photo stored (see `ImageCeiling`).
    let imageCeiling: ImageCeiling
    /// This process among the instances sharing the database, as album leases name it.
    let instanceID = SecureRandom.bytes(8).map { String(format: "%02x", $0) }.joined()
    /// How long a download's lease lasts; it is renewed every third of that while it runs.
    let leaseMilliseconds: Int64
    /// How often abandoned albums are looked for.
    let leaseScanInterval: Duration
    let scanner = Mutex<Task<Void, Never>?>(nil)
    /// Downloads started, and those that ran to their end (the album ready, empty or failed, or
    /// another instance's lease), for `GET /metrics`.
    let downloadsStarted = Atomic<Int64>(0)
    let downloadsFinished = Atomic<Int64>(0)

    package init(
        storage: StorageExecutor, provider: any PhotoProvider, gazetteer: Gazetteer, limits: ImageLimits,
        imageCeiling: ImageCeiling = ImageCeiling(), logger: Logger,
        clock: WallClock = .system, leaseMilliseconds: Int64 = 60_000, leaseScanInterval: Duration = .seconds(10)
    ) {
        self.leaseMilliseconds = leaseMilliseconds
        self.leaseScanInterval = leaseScanInterval
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

    /// Starts the download of an album (replacing any still running for its pin) and returns the
    /// album as its search left it, once that answer is recorded or the search failed; nil when
    /// the download stopped first or after `searchWait`. The download goes on in the background
    /// after this returns. `album` is what the caller's own write just read, so the download
    /// starts without reading it again.
    func start(_ album: AlbumRecord) async -> AlbumRecord? {
        let (settled, signal) = AsyncStream<AlbumRecord>.makeStream()
        launch(pinID: album.pin.id, initial: album, replacing: true, searched: signal)
        return await withTaskGroup(of: AlbumRecord?.self) { group in
            group.addTask {
                for await album in settled { return album }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: Self.searchWait)
                return nil
            }
            // Whichever ends first; cancelling the other ends it at once (the download itself
            // is not a child of this group and carries on).
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Starts every album left downloading (at server start: after a crash or a stop mid-download)
    /// whose lease is free, and from then on, every `leaseScanInterval`, albums whose lease ran out.
    func resumeUnfinished() {
        let scan = Task(executorPreference: executor) { [leaseScanInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: leaseScanInterval)
                guard !Task.isCancelled else { return }
                let now = self.clock.now()
                guard let pins = try? await self.storage.read({ store in try store.albumsWithExpiredLeases(now: now) }) else { continue }
                for pinID in pins where !self.isDownloading(pinID) {
                    self.logger.info("taking over the album of pin \(pinID): its download's lease ran out")
                    self.launch(pinID: pinID, initial: nil, replacing: false, searched: nil)
                }
            }
        }
        scanner.withLock { $0 = scan }
        Task(executorPreference: executor) {
            do {
                let pins = try await self.storage.read { store in try store.downloadingAlbumPins() }
                guard !pins.isEmpty else { return }
                self.logger.info("resuming \(pins.count) unfinished album\(pins.count == 1 ? "" : "s")")
                for pinID in pins {
                    // A download a client started meanwhile is already doing the work.
                    self.launch(pinID: pinID, initial: nil, replacing: false, searched: nil)
                }
            } catch {
                self.logger.error("could not look for unfinished albums: \(error)")
            }
        }
    }

    /// Album downloads this instance runs now.
    var downloadsRunning: Int { jobs.withLock { $0.byPin.count } }

    /// Whether this instance is downloading `pinID`'s album now.
    func isDownloading(_ pinID: Int64) -> Bool { jobs.withLock { $0.byPin[pinID] != nil } }

    /// Stops a pin's download (its pin was deleted); results still in flight find no slot.
    func cancel(pinID: Int64) {
        let job = jobs.withLock { $0.byPin.removeValue(forKey: pinID) }
        job?.task.cancel()
    }

    /// Stops every download and waits (a few seconds at most) for them to wind down; albums stay
    /// downloading in storage and resume at the next start.
    package func shutdown() {
        scanner.withLock { $0?.cancel() }
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
    package func pauseFetches() { gate.pause() }
    /// Lets `count` held (or future) fetches through while paused.
    package func allowFetches(_ count: Int) { gate.allow(count) }
    /// Lets every fetch through again.
    package func resumeFetches() { gate.open() }
}
