import Shared

/// view SNAP_ID: the one viewing of a snap.
enum ViewCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let session = try context.authenticated()
        let opened = try session.open(snapID: id)
        let line = "viewed snap \(opened.snap.id) \(opened.snap.width)x\(opened.snap.height) \(opened.image.count) sha256:\(SHA256.hex(opened.sha256))"
        if context.json {
            var object = SnapPresenter.json(opened.snap)
            if case .object(var members) = object {
                members.append(("sha256", .string(SHA256.hex(opened.sha256))))
                object = .object(members)
            }
            context.printJSON(object)
            return
        }
        try ImageDisplay.show(bytes: opened.image, limits: ImageDisplay.limits(for: session.welcome), context: context, caption: line)
    }
}
