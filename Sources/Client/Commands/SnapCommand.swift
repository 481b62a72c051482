/// snap ID: one snap's details, and who opened it when (its poster and admins).
enum SnapCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let session = try context.authenticated()
        let views = try session.snapViews(id)
        if context.json {
            context.printJSON(SnapPresenter.json(views))
            return
        }
        let now = Timestamp.now() + (session.welcome.serverTime - Timestamp.now())
        context.console.out(SnapPresenter.details(views, now: now))
    }
}
