import TestSupport
import Testing

@testable import Client

/// What `snapshare` runs when its arguments name no command.
@Suite("The app as the default command")
struct AppCommandTests {
    @Test("the app's own options open the app without naming it; the global ones open it on a terminal and the help elsewhere")
    func impliedApp() {
        #expect(AppCommand.implied(by: ["--camera-device", "/dev/video2"], onTerminal: true) == ["app", "--camera-device", "/dev/video2"])
        #expect(
            AppCommand.implied(by: ["--server", "h:1", "--camera-device=lavfi:testsrc2", "--pictures", "sixel"], onTerminal: false)
                == ["app", "--server", "h:1", "--camera-device=lavfi:testsrc2", "--pictures", "sixel"])
        #expect(AppCommand.implied(by: ["--server", "h:1"], onTerminal: true) == ["app", "--server", "h:1"])
        #expect(AppCommand.implied(by: ["--server", "h:1"], onTerminal: false) == ["--server", "h:1", "--help"])
        #expect(AppCommand.implied(by: [], onTerminal: false) == ["--help"])
        #expect(AppCommand.implied(by: ["feeds"], onTerminal: true) == nil)
        #expect(AppCommand.implied(by: ["--server", "h:1", "post", "--sample", "1"], onTerminal: true) == nil)
    }

    @Test("snapshare --camera-device without a terminal is the app saying it needs one, not an unknown option")
    func cameraDeviceAlone() throws {
        let home = TemporaryDirectory("app-home")
        let result = try Subprocess.run("snapshare", ["--camera-device", "/dev/video9"], environment: ["SNAPSHARE_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("the app needs a terminal") && !result.stderr.contains("unknown option"), "\(result.stderr)")
    }
}
