import Wire

#if canImport(Glibc)
    import TerminalUI
    import Glibc
#endif

/// album PIN_ID [--wait], album new PIN_ID [--wait].
enum AlbumCommands {
    /// How often `--wait` asks the server for progress.
    static let pollMilliseconds: Int32 = 400

    static func run(_ context: CommandContext) throws(ClientError) {
        switch (context.parsed.positional(0), context.parsed.positional(1)) {
        case (nil, _):
            throw context.usage("which pin? `snapshare album PIN_ID` with an id from `snapshare pins`")
        case ("new"?, nil):
            throw context.usage("which pin? `snapshare album new PIN_ID` with an id from `snapshare pins`")
        case ("new"?, _?):
            try newCollection(context, pinID: try context.identifier(1, "PIN_ID"))
        case (_?, nil):
            try show(context, pinID: try context.identifier(0, "PIN_ID"))
        case (_?, let extra?):
            throw context.usage("unexpected argument '\(extra)'; use `snapshare album PIN_ID` or `snapshare album new PIN_ID`")
        }
    }

    private static func show(_ context: CommandContext, pinID: UInt64) throws(ClientError) {
        let session = try context.authenticated()
        var album = try session.album(pinID: pinID)
        if context.parsed.flag("--wait") { album = try wait(for: album, session: session, context: context) }
        try present(album, context: context)
    }

    /// New Collection: the server empties the album and fetches a different set.
    private static func newCollection(_ context: CommandContext, pinID: UInt64) throws(ClientError) {
        let session = try context.authenticated()
        var album = try session.newCollection(pinID: pinID)
        if context.parsed.flag("--wait") {
            album = try wait(for: album, session: session, context: context)
        } else if !context.json {
            context.console.out("Fetching a new collection for pin \(pinID); watch it with: snapshare album \(pinID) --wait")
        }
        try present(album, context: context)
    }

    /// Polls until the download ends, with a progress bar on a terminal's standard error.
    /// Ctrl-C stops the waiting, not the download: the server goes on fetching the album.
    private static func wait(for first: Album, session: SnapshareSession, context: CommandContext) throws(ClientError) -> Album {
        var album = first
        let interrupt = try InterruptFlag()
        defer { interrupt.stop() }
        var bar = AlbumProgressBar(label: "Pin \(album.pinID)", console: context.console)
        defer { bar.finish() }
        while album.state == .downloading {
            bar.update(done: album.done, expected: album.expected)
            if try interrupt.wait(milliseconds: pollMilliseconds) {
                bar.finish()
                throw ClientError(
                    .interrupted,
                    "stopped waiting at \(album.done) of \(album.expected) photos; the album of pin "
                        + "\(album.pinID) keeps downloading on the server (see it with `snapshare album \(album.pinID) --wait`)")
            }
            album = try session.album(pinID: album.pinID)
        }
        return album
    }

    /// Prints the album; a failed one also ends the command with the provider's error (exit 1),
    /// so a script never mistakes a broken download for an empty place.
    private static func present(_ album: Album, context: CommandContext) throws(ClientError) {
        if context.json {
            context.printJSON(AlbumPresenter.json(album))
        } else {
            let width = Terminal.sizeOrDefault(of: 1).columns
            context.console.raw(AlbumPresenter.text(album, width: width))
            if album.photos.contains(where: { $0.state == .ready }) {
                context.console.out("\nDraw a photo: snapshare photo show PHOTO   Remove one: snapshare photo rm PHOTO")
                context.console.out("A different set: snapshare album new \(album.pinID)")
            }
        }
        if album.state == .failed {
            let reason = album.error.isEmpty ? "no reason given" : PrintableText.clean(album.error)
            throw ClientError(
                .server,
                "the photo source failed for pin \(album.pinID): \(reason)\n"
                    + "(this is an error, not an empty place; `snapshare album new \(album.pinID)` tries again)"
            )
        }
    }
}
