import JSON

/// Virtual Vacations, kept by the client (one SQLite file each): vacation list | new | rm |
/// show, visit, unvisit, itinerary, tags. Only `visit` talks to the server; everything else
/// works with the server unreachable.
enum VacationCommands {
    // MARK: The folder

    static func list(_ context: CommandContext) throws(ClientError) {
        let (vacations, warnings) = library(context).list()
        for warning in warnings { context.console.err(warning.line) }
        if context.json {
            context.printJSON(.array(vacations.map(VacationPresenter.json)))
            return
        }
        context.console.raw(VacationPresenter.table(vacations) + "\n")
        if vacations.count == 1, let only = vacations.first, !only.exists {
            context.console.out(
                "\(only.name) is the default vacation; it is created the first time you use it "
                    + "(`snapshare visit PHOTO_ID`). Make others with `snapshare vacation new NAME`.")
        }
    }

    static func create(_ context: CommandContext) throws(ClientError) {
        let store = try checked { () throws(VacationError) in try library(context).create(context.parsed.positional(0) ?? "") }
        if context.json {
            context.printJSON(VacationPresenter.json(try checked { () throws(VacationError) in try store.summary() }))
        } else {
            context.console.out(
                "Created vacation \(PrintableText.clean(store.name)). Visit photos into it with "
                    + "`snapshare visit PHOTO_ID\(suffix(store))`.")
        }
    }

    static func remove(_ context: CommandContext) throws(ClientError) {
        let vacations = library(context)
        let stored = try checked { () throws(VacationError) in try vacations.existing(context.parsed.positional(0) ?? "") }
        try context.confirm("Remove the vacation \(PrintableText.clean(stored)) and every photo visited into it?")
        let name = try checked { () throws(VacationError) in try vacations.remove(stored) }
        context.console.out("Removed vacation \(PrintableText.clean(name)).")
    }

    /// vacation show PHOTO_ID: draws a visited photo from the vacation's file, offline.
    static func show(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "PHOTO_ID")
        let store = try open(context)
        let thumbnail = context.parsed.flag("--thumbnail")
        let (photo, bytes) = try checked { () throws(VacationError) in
            try store.image(photoID: id, preferredOrigin: preferredOrigin(context), thumbnail: thumbnail)
        }
        if context.json {
            context.printJSON(VacationPresenter.json(photo))
            return
        }
        let about =
            "photo \(photo.photoID) \"\(PrintableText.clean(photo.displayTitle))\" at "
            + "\(PrintableText.clean(photo.place)) (\(PrintableText.clean(store.name)))"
        try ImageDisplay.show(bytes: bytes, context: context, title: "Photo" + about.dropFirst(5), caption: about)
    }

    // MARK: Visiting

    /// visit PHOTO_ID: copies a photo of one of your albums into the vacation.
    static func visit(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "PHOTO_ID")
        let store = try open(context)
        let origin = try context.settings().serverKey
        // Visiting twice changes nothing, and needs no server.
        if try checked({ () throws(VacationError) in try store.contains(origin: origin, photoID: id) }) {
            return report(visited: nil, id: id, store: store, context)
        }
        let session = try context.authenticated()
        let photo = try AlbumPhotoDownload.fetch(photoID: id, session: session)
        let outcome = try checked { () throws(VacationError) in try store.visit(photo, now: Timestamp.now()) }
        switch outcome {
        case .added(let newPlace): report(visited: (photo, newPlace), id: id, store: store, context)
        case .alreadyVisited: report(visited: nil, id: id, store: store, context) // another process was quicker
        }
    }

    /// What `visit` did: `visited` is the photo it added, nil when the photo was there already.
    private static func report(
        visited: (photo: VisitedPhoto, newPlace: Bool)?, id: UInt64, store: VacationStore,
        _ context: CommandContext
    ) {
        let vacation = PrintableText.clean(store.name)
        if context.json {
            var members: [(key: String, value: JSONValue)] = [
                ("vacation", .string(store.name)), ("id", .int(Int64(bitPattern: id))),
                ("added", .bool(visited != nil)),
            ]
            if let photo = visited?.photo {
                members += [
                    ("title", .string(photo.title.isEmpty ? VacationPhoto.unknownTitle : photo.title)),
                    ("place", .string(VacationStore.placeName(photo.place))),
                ]
            }
            context.printJSON(.object(members))
            return
        }
        guard let (photo, newPlace) = visited else {
            context.console.out("Photo \(id) is already in \(vacation); nothing changed.")
            return
        }
        let title = PrintableText.clean(photo.title.isEmpty ? VacationPhoto.unknownTitle : photo.title)
        let place = PrintableText.clean(VacationStore.placeName(photo.place))
        context.console.out(
            "Visited photo \(id) \"\(title)\" at \(place) in \(vacation)"
                + (newPlace ? " (a new place on the itinerary)." : "."))
    }

    /// unvisit PHOTO_ID: removes a photo; tags and places left without photos go too.
    static func unvisit(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "PHOTO_ID")
        let store = try open(context)
        let photo = try checked { () throws(VacationError) in try store.unvisit(photoID: id, preferredOrigin: preferredOrigin(context)) }
        if context.json {
            context.printJSON(.object([("vacation", .string(store.name)), ("id", .int(Int64(bitPattern: id))), ("removed", .bool(true))]))
            return
        }
        context.console.out("Removed photo \(id) \"\(PrintableText.clean(photo.displayTitle))\" from \(PrintableText.clean(store.name)).")
    }

    // MARK: Browsing

    /// itinerary [PLACE]: the places first visited first, or the photos of one place.
    static func itinerary(_ context: CommandContext) throws(ClientError) {
        let store = try open(context)
        let vacation = PrintableText.clean(store.name)
        if let requested = context.parsed.positional(0) {
            let (place, photos) = try checked { () throws(VacationError) in try store.photos(atPlace: requested) }
            if context.json {
                context.printJSON(.array(photos.map(VacationPresenter.json)))
                return
            }
            context.console.out("Photos at \(PrintableText.clean(place.name)) in \(vacation):")
            context.console.raw(VacationPresenter.table(photos, showPlace: false) + "\n")
            return
        }
        let places = try checked { () throws(VacationError) in try store.itinerary() }
        if context.json {
            context.printJSON(.array(places.map(VacationPresenter.json)))
            return
        }
        guard !places.isEmpty else {
            context.console.out("\(vacation) has no places yet; visit a photo with `snapshare visit PHOTO_ID\(suffix(store))`.")
            return
        }
        context.console.out("Itinerary of \(vacation), first visited first:")
        context.console.raw(VacationPresenter.table(places, now: Timestamp.now()) + "\n")
    }

    /// tags [TAG] [--search TEXT]: the tags most often seen first, or the photos with one tag.
    static func tags(_ context: CommandContext) throws(ClientError) {
        if context.parsed.positional(0) != nil && context.parsed.string("--search") != nil {
            throw context.usage("give a TAG to list its photos, or --search TEXT to filter the tags, not both")
        }
        let store = try open(context)
        let vacation = PrintableText.clean(store.name)
        if let requested = context.parsed.positional(0) {
            let (tag, photos) = try checked { () throws(VacationError) in try store.photos(taggedWith: requested) }
            if context.json {
                context.printJSON(.array(photos.map(VacationPresenter.json)))
                return
            }
            context.console.out("Photos tagged \(PrintableText.clean(tag.displayName)) in \(vacation):")
            context.console.raw(VacationPresenter.table(photos, showPlace: true) + "\n")
            return
        }
        let search = context.parsed.string("--search")
        let tags = try checked { () throws(VacationError) in try store.tags(search: search) }
        if context.json {
            context.printJSON(.array(tags.map(VacationPresenter.json)))
            return
        }
        guard !tags.isEmpty else {
            if let search {
                context.console.out("No tag of \(vacation) contains \"\(PrintableText.clean(search))\".")
            } else {
                context.console.out("\(vacation) has no tags yet; visit a photo with `snapshare visit PHOTO_ID\(suffix(store))`.")
            }
            return
        }
        context.console.out("Tags of \(vacation), most often seen first:")
        context.console.raw(VacationPresenter.table(tags) + "\n")
    }

    // MARK: Pieces

    private static func library(_ context: CommandContext) -> VacationLibrary { VacationLibrary(state: context.state) }

    /// The vacation named by `--vacation`, else the default (created on first use).
    private static func open(_ context: CommandContext) throws(ClientError) -> VacationStore {
        try checked { () throws(VacationError) in try library(context).open(context.parsed.string("--vacation")) }
    }

    /// The server photos are visited from now, to choose between photos of the same id visited
    /// from different servers. Offline commands must not fail when it cannot be worked out.
    private static func preferredOrigin(_ context: CommandContext) -> String? {
        try? context.settings().serverKey
    }

    private static func suffix(_ store: VacationStore) -> String { VacationPresenter.option(store.name) }

    /// Runs `body`, mapping its failure to the documented exit codes.
    private static func checked<T>(_ body: () throws(VacationError) -> T) throws(ClientError) -> T {
        do { return try body() } catch { throw ClientError(error) }
    }
}
