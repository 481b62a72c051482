import Foundation
import Synchronization
import TLS

#if canImport(Glibc)
    import Glibc
#endif

/// The whole server: storage, certificates, TLS, handlers and the event loop, wired from one
/// configuration. `main` and the tests both start it through this type.
package final class SnapshareServer: @unchecked Sendable {
    package let configuration: ServerConfiguration
    package let logger: Logger
    package private(set) var port = 0
    /// The certificate set in use when the server generated its own.
    private(set) var certificates: DevCertificateSet?
    /// The fingerprints of the chain being served, for the start-up lines.
    private(set) var servedChain: CertificateChainFile?
    private let storage: StorageExecutor
    private let core: ServerCore
    private let handler: RequestHandler
    /// What a reload changes while the server runs (the class code, the snaps' lifetime…), read
    /// by the handlers at each request.
    private let settings: LiveSettings
    /// What Poll reports, fed by other instances through PostgreSQL when there are any.
    private let changes: ChangeVersion
    /// The expiry purge's thread, started once serving has started.
    private var purgeTask: PeriodicTask?
    /// The scheduled backups' thread, with `--backup-dir`.
    private var backupTask: PeriodicTask?
    /// Fetches pins' albums in the background; tests and operators can hold its fetches.
    package let albums: Albums
    /// Counters shown by `admin stats`.
    package let metrics: ServerMetrics
    private let stopped = Atomic<Bool>(false)
    /// The time of day for everything the server stores, expires and throttles.
    package let clock: WallClock
    /// `--metrics`: GET /metrics and GET /health over plain HTTP, once started.
    private var metricsListener: MetricsListener?
    /// The port `--metrics` serves on once started (the one port 0 picked); nil without it.
    package var metricsPort: Int? { metricsListener?.port }
    /// Draining for a stop: `/health` says 503, so a load balancer sends no one new.
    private let draining = Atomic<Bool>(false)

    /// A server from `configuration`; `clock` is the machine's unless a test brings its own.
    package init(configuration: ServerConfiguration, logger: Logger, clock: WallClock = .system) throws {
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
        try DataDirectory.prepare(configuration.dataDirectory, logger: logger)
        // Before storage starts its threads: a photo source that cannot work stops the start here.
        let photos = try configuration.photoSource.makeProvider(configuration.photoSettings, logger: logger)
        let gazetteer = try Gazetteer.bundled()
        storage =
            if let database = configuration.database {
                try StorageExecutor.postgres(conninfo: database, readers: configuration.storageReaders)
            } else {
                try StorageExecutor.sqlite(path: configuration.databasePath, readers: configuration.storageReaders)
            }

        let served = try ServedCertificate.load(configuration)
        served.logIssue(logger)
        certificates = served.devSet
        servedChain = served.chain
        metrics = ServerMetrics(startedAt: clock.now())
        metrics.certificateExpires(at: servedChain?.leafNotAfter)
        let ceiling = ImageCeiling(largestStoredImage: try storage.readSync { store in try store.largestStoredImage() })
        albums = Albums(
            storage: storage, provider: photos, gazetteer: gazetteer,
            limits: configuration.imageLimits, imageCeiling: ceiling,
            logger: logger, clock: clock, leaseMilliseconds: configuration.albumLeaseMilliseconds,
            leaseScanInterval: .milliseconds(configuration.albumLeaseScanMilliseconds))
        // With PostgreSQL, the feed that carries changes between instances: its thread starts last
        // of all that can fail, so a start that fails leaves none behind.
        changes = ChangeVersion(feed: configuration.database.map { PostgresChangeFeed(conninfo: $0, logger: logger) })
        settings = LiveSettings(configuration)
        let handlers = Handlers(
            storage: storage, configuration: configuration, settings: settings, changes: changes, albums: albums,
            imageCeiling: ceiling, metrics: metrics, logger: logger, clock: clock)
        handler = RequestHandler(handlers: handlers, storage: storage, metrics: metrics, logger: logger, clock: clock)
        core = try ServerCore(
            configuration: configuration, tlsContext: served.context, handler: handler, storage: storage,
            imageCeiling: ceiling, metrics: metrics, logger: logger)
    }

    deinit { stop() }

    /// Binds, starts serving, and starts the expiry purge; returns the bound port.
    @discardableResult
    package func start() throws -> Int {
        // Bind first: a server that cannot listen starts nothing else (and reports only that).
        port = try core.start()
        do { try startMetrics() } catch {
            stop()
            throw error
        }
        applySnapLifetime(configuration.snapTTLMilliseconds)
        albums.resumeUnfinished()
        purgeTask = PeriodicTask(name: "purge", intervalMilliseconds: configuration.expiryPurgeIntervalMilliseconds) { [weak self] in
            self?.purgeExpired()
        }
        if let directory = configuration.backupDirectory {
            let policy = ScheduledBackups.Policy(
                directory: directory, intervalMilliseconds: configuration.backupIntervalMilliseconds,
                keep: configuration.backupKeep)
            backupTask = ScheduledBackups(policy: policy, configuration: configuration, logger: logger, metrics: metrics).start()
        }
        return port
    }

    /// Every live snap's lifetime counted from when it was posted with `milliseconds`, then the
    /// purge, so a shorter `--snap-ttl` erases what it has ended at once.
    private func applySnapLifetime(_ milliseconds: Int64) {
        let now = clock.now()
        let logger = self.logger
        storage.write(
            { store in try store.applySnapLifetime(milliseconds: milliseconds, now: now) },
            completion: { [weak self] result in
                switch result {
                case .success(let changed) where changed > 0:
                    logger.info("snap lifetime \(milliseconds / 1000) s now applies to \(changed) snaps posted before it")
                case .success: break
                case .failure(let error): logger.error("applying the snap lifetime failed: \(error)")
                }
                self?.purgeExpired()
            })
    }

    /// Erases the image bytes of expired snaps, and forgets expired sessions and login throttle
    /// budgets no window reaches.
    package func purgeExpired() {
        let now = clock.now()
        let logger = self.logger
        // A budget unused for longer than its window and its longest-running attempt holds nothing.
        let forgetThrottlesAfter = [configuration.loginThrottle, configuration.classCodeThrottle, configuration.deviceLoginThrottle]
            .map { $0.window + $0.pendingLifetime }.max()!
        let deviceLifetime = configuration.deviceLifetimeMilliseconds
        let metrics = self.metrics
        storage.write(
            { store -> Int in
                let erased = try store.purgeExpired(now: now)
                _ = try store.deleteExpiredSessions(now: now)
                _ = try store.forgetThrottleBudgets(lastUsedBefore: now - forgetThrottlesAfter)
                _ = try store.deleteDevices(lastUsedBefore: now - deviceLifetime)
                return erased
            },
            completion: { result in
                metrics.purgeFinished(result)
                switch result {
                case .success(let erased) where erased > 0:
                    logger.info("erased the images of \(erased) expired snaps")
                case .success: break
                case .failure(let error): logger.error("expiry purge failed: \(error)")
                }
            })
    }

    /// Calls `done` once every storage write queued before this call has committed (or failed)
    /// and its completion has run: the one writer takes writes in order. For tests, which wait
    /// so for what the server writes after it replied (an audit entry) or on its own (a purge).
    package func afterQueuedWrites(_ done: @escaping @Sendable () -> Void) {
        storage.write({ _ in }, completion: { _ in done() })
    }

    /// Re-reads what a reload may change (SIGHUP): the certificate and key files, the log level,
    /// the class code and the snaps' lifetime. A certificate that cannot be used keeps the one
    /// being served, and says why; settings that need a restart are named. Never stops the server.
    package func reload(_ new: ServerConfiguration, changedOptions: Set<String>) {
        logger.info("reloading (SIGHUP)")
        do {
            let served = try ServedCertificate.load(new)
            served.logIssue(logger)
            core.replaceTLSContext(served.context)
            certificates = served.devSet
            servedChain = served.chain
            metrics.certificateExpires(at: served.chain?.leafNotAfter)
            logger.info((["reload: serving the certificate \(served.chainFile)"] + (served.chain?.pinLines ?? [])).joined(separator: "; "))
        } catch {
            let kept =
                servedChain.map { "; still serving the previous one (SHA-256 \($0.leafFingerprint))" } ?? "; still serving the previous one"
            logger.error("reload: the certificate could not be used: \(error)\(kept)")
        }
        if new.logLevel != logger.level {
            logger.info("reload: log level \(logger.level.name) -> \(new.logLevel.name)")
            logger.level = new.logLevel
        }
        let lifetimeChanged = new.snapTTLMilliseconds != settings.snapTTLMilliseconds
        settings.update(from: new)
        if lifetimeChanged { applySnapLifetime(new.snapTTLMilliseconds) }
        let applied = changedOptions.intersection(ServerCommandLine.reloadableOptions).sorted()
        let waiting = changedOptions.subtracting(ServerCommandLine.reloadableOptions).sorted()
        if !applied.isEmpty { logger.info("reload: \(applied.joined(separator: ", ")) changed; in effect now") }
        if !waiting.isEmpty { logger.warning("reload: \(waiting.joined(separator: ", ")) changed; that takes effect only at a restart") }
        logger.info("reload done")
    }

    /// Stops accepting and lets the connections finish what they have in flight (see
    /// `ServerCore.drain`); returns how many were still open after `timeoutMilliseconds`.
    package func drain(timeoutMilliseconds: Int64, interrupted: () -> Bool = { false }) -> Int {
        draining.store(true, ordering: .releasing)
        return core.drain(timeoutMilliseconds: timeoutMilliseconds, interrupted: interrupted)
    }

    /// Stops serving and closes storage. Only the first call does anything, and a server
    /// released without one stops itself.
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        purgeTask?.stop()
        purgeTask = nil
        backupTask?.stop()
        backupTask = nil
        albums.shutdown()
        changes.stop()
        core.stop()
        metricsListener?.stop()
        storage.shutdown()
    }
}

/// `--metrics`: the monitoring listener, started once the core listens.
extension SnapshareServer {
    private func startMetrics() throws {
        guard let address = configuration.metricsAddress else { return }
        let endpoints = MonitoringEndpoints(
            metrics: metrics, storage: storage, albums: albums, health: HealthProbe(storage: storage, logger: logger)
        ) {
            [weak self] in self.map { !$0.stopped.load(ordering: .acquiring) && !$0.draining.load(ordering: .acquiring) } ?? false
        }
        let listener = try MetricsListener(host: address.host, port: Int(address.port), logger: logger, respond: endpoints.respond)
        metricsListener = listener
        listener.start()
    }
}
