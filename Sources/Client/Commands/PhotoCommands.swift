import Crypto
import Imaging
import Wire

/// photo show PHOTO_ID [--thumbnail], photo rm PHOTO_ID.
enum PhotoCommands {
    static func show(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "PHOTO_ID")
        let session = try context.authenticated()
        let image = try session.photo(id, variant: context.parsed.flag("--thumbnail") ? .thumbnail : .full)
        try draw(image, limits: session.welcome.displayLimits, context: context)
    }

    /// Prints a photo as `view` prints a snap: JSON with its SHA-256, or a caption, the drawing
    /// (within `limits`) and, off a terminal, the line `photo ID WxH BYTES sha256:HEX`.
    static func draw(_ image: PhotoImage, limits: ImageLimits, context: CommandContext) throws(ClientError) {
        if context.json {
            var object = AlbumPresenter.json(image.photo)
            if case .object(var members) = object {
                members.append(("variant", .string(image.variant == .thumbnail ? "thumbnail" : "full")))
                members.append(("sha256", .string(SHA256.hex(image.sha256))))
                object = .object(members)
            }
            context.printJSON(object)
            return
        }
        // On a terminal the caption is on the picture and left behind after it; in a pipe it
        // heads the drawing.
        if !context.console.outputIsTerminal { context.console.out(AlbumPresenter.caption(image.photo)) }
        // The caption line needs the decoded size, which only the drawing knows; the header
        // gives it without decoding twice.
        let header = try? ImageHeader.parse(image.image)
        let line = AlbumPresenter.infoLine(
            image, width: header?.width ?? Int(image.photo.width), height: header?.height ?? Int(image.photo.height))
        try ImageDisplay.show(
            bytes: image.image, limits: limits, context: context, title: AlbumPresenter.caption(image.photo),
            afterwards: "Showed " + AlbumPresenter.caption(image.photo).prefix(1).lowercased()
                + AlbumPresenter.caption(image.photo).dropFirst(), caption: line)
    }

    static func remove(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "PHOTO_ID")
        let session = try context.authenticated()
        try session.deletePhoto(id)
        if context.json {
            context.printJSON(.object([("id", .int(Int64(bitPattern: id))), ("deleted", .bool(true))]))
        } else {
            context.console.out("Removed photo \(id); the rest of its album keeps its order.")
        }
    }
}
