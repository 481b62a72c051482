/// random: one of my pins at random, where it is, and one of its photos drawn.
enum RandomCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let pick = try session.randomPin()
        if context.json {
            context.printJSON(AlbumPresenter.json(pick))
            return
        }
        guard let pin = pick.pin else {
            context.console.out("No pins yet. Drop one with: snapshare pin add LAT LON")
            return
        }
        context.console.out("Random pin \(pin.id) at \(AlbumPresenter.coordinates(pin.latitude, pin.longitude))")
        if !pick.description.isEmpty { context.console.out(PrintableText.clean(pick.description)) }
        guard let photo = pick.photo else {
            let album = AlbumPresenter.summary(state: pin.albumState, expected: pin.expected, done: pin.done)
            context.console.out("No photo to show: the album is \(album). See it with: snapshare album \(pin.id)")
            return
        }
        try PhotoCommands.draw(try session.photo(photo.id), limits: session.welcome.displayLimits, context: context)
    }
}
