/// Every request handler, one per concern, each holding only what its requests use; made once per
/// server from its parts, and what every route of `RequestTable` calls its handler on.
struct Handlers: Sendable {
    let accounts: AccountHandlers
    let accountAdmin: AccountAdminHandlers
    let snaps: SnapHandlers
    let posting: PostingHandlers
    let images: ImageReplies
    let feedAdmin: FeedAdminHandlers
    let moderation: ModerationHandlers
    let classData: ClassDataHandlers
    let roster: RosterHandlers
    let oversight: OversightHandlers
    let pins: PinHandlers
    let movies: MovieHandlers
    let classes: ClassHandlers

    /// The handlers of a server over `storage`. `settings` are what a reload changes; `changes`
    /// is what Poll reports; `imageCeiling` is raised with every snap posted.
    init(
        storage: StorageExecutor, configuration: ServerConfiguration, settings: LiveSettings, changes: ChangeVersion,
        albums: Albums, imageCeiling: ImageCeiling, metrics: ServerMetrics, logger: Logger, clock: WallClock
    ) {
        let passwords = PasswordWork()
        let attempts = LoginAttempts(configuration: configuration, storage: storage, metrics: metrics, logger: logger, clock: clock)
        accounts = AccountHandlers(
            storage: storage, settings: settings, attempts: attempts, passwords: passwords,
            sessionLifetime: configuration.sessionLifetimeMilliseconds, logger: logger, clock: clock)
        accountAdmin = AccountAdminHandlers(
            storage: storage, changes: changes, attempts: attempts, passwords: passwords,
            logger: logger, clock: clock)
        snaps = SnapHandlers(storage: storage, changes: changes, clock: clock)
        posting = PostingHandlers(
            storage: storage, changes: changes, settings: settings, quota: PostingQuota(configuration),
            imageLimits: configuration.imageLimits, imageCeiling: imageCeiling, metrics: metrics,
            logger: logger, clock: clock)
        images = ImageReplies(
            storage: storage, images: ImageCache(capacityBytes: configuration.imageCacheBytes), changes: changes,
            logger: logger, clock: clock)
        feedAdmin = FeedAdminHandlers(storage: storage, changes: changes, logger: logger, clock: clock)
        moderation = ModerationHandlers(storage: storage, changes: changes, logger: logger, clock: clock)
        classData = ClassDataHandlers(storage: storage, changes: changes, logger: logger, clock: clock)
        roster = RosterHandlers(storage: storage, logger: logger)
        oversight = OversightHandlers(storage: storage, metrics: metrics, clock: clock)
        pins = PinHandlers(storage: storage, albums: albums, logger: logger, clock: clock)
        movies = MovieHandlers(storage: storage, logger: logger, clock: clock)
        classes = ClassHandlers(storage: storage, logger: logger, clock: clock)
    }
}
