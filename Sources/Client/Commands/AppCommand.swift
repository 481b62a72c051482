#if canImport(Glibc)
import Glibc
#endif
import TerminalUI

/// app: the full-screen app, on the terminal this runs in.
enum AppCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        // A camera named wrongly is a usage error before the terminal is taken.
        let camera: CameraDevice
        do { camera = try CameraDevice.parse(context.parsed.string("--camera-device")) } catch { throw context.usage(error.message) }
        guard Terminal.isTerminal(0), Terminal.isTerminal(1) else {
            throw ClientError(.usage, "the app needs a terminal for its input and output; every feature is also a command (snapshare --help)")
        }
        try AppRunner.run(settings: try context.settings(), state: context.state, environment: context.environment,
                          pictures: try requestedPictures(context), camera: camera)
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

    /// Whether `arguments` name no command, only the global options (`--server`, `--ca`).
    static func namesNoCommand(_ arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--server" || word == "--ca" { index += 2; continue }
            if word.hasPrefix("--server=") || word.hasPrefix("--ca=") { index += 1; continue }
            return false
        }
        return true
    }
}
