import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// app: the full-screen app, on the terminal this runs in.
enum AppCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        // A camera named wrongly is a usage error before the terminal is taken.
        let camera: CameraDevice
        do { camera = try CameraDevice.parse(context.parsed.string("--camera-device")) } catch { throw context.usage(error.message) }
        guard Terminal.isTerminal(0), Terminal.isTerminal(1) else {
            throw ClientError(
                .usage, "the app needs a terminal for its input and output; every feature is also a command (snapshare --help)")
        }
        try AppRunner.run(
            settings: try context.settings(), state: context.state, environment: context.environment,
            pictures: try requestedPictures(context), camera: camera, asked: context.parsed.string("--class"))
    }

    /// The protocol `--pictures` asks for; nil for `auto` (or none given): the terminal's best.
    static func requestedPictures(_ context: CommandContext) throws(ClientError) -> PictureProtocol? {
        let name = context.parsed.string("--pictures") ?? "auto"
        guard name != "auto" else { return nil }
        guard let chosen = PictureProtocol(rawValue: name) else {
            throw context.usage("--pictures takes halfblock, kitty, iterm, sixel or auto, not '\(name)'")
        }
        return chosen
    }

    /// What `arguments` that name no command mean: nil when they name one. Only the global
    /// options (`--server`, `--ca`), or none: the app on a terminal, the help elsewhere. An
    /// option of the app's own too (`--camera-device`, `--pictures`): the app, which says so
    /// when there is no terminal. Each option may be given as `--name value` or `--name=value`.
    static func implied(by arguments: [String], onTerminal: Bool) -> [String]? {
        let root = CommandTree.root
        let global = Set(root.options.map(\.name))
        let own = Set((root.subcommands.first { $0.name == "app" }?.options ?? []).map(\.name))
        var namesOwn = false
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let name = String(word.prefix { $0 != "=" })
            guard global.contains(name) || own.contains(name) else { return nil }
            namesOwn = namesOwn || own.contains(name)
            index += word.contains("=") ? 1 : 2
        }
        // Options after a command's name are its own, so `app` goes first.
        return namesOwn || onTerminal ? ["app"] + arguments : arguments + ["--help"]
    }
}
