import Foundation

/// The X programs that window tests drive, by absolute path; nil when the Debian package is not
/// installed (`xvfb`, `xterm`, `kitty`, `xdotool`, `imagemagick`).
enum X11Tools {
    static let xvfb = installed("Xvfb")
    static let xterm = installed("xterm")
    static let kitty = installed("kitty")
    static let xdotool = installed("xdotool")
    /// ImageMagick's screenshot taker.
    static let screenshot = installed("import")

    /// What is missing to run `terminal` under Xvfb and watch it, or nil when nothing is.
    static func missing(besides terminal: (name: String, path: String?)) -> String? {
        let needed = [("Xvfb", xvfb), ("xdotool", xdotool), ("import (ImageMagick)", screenshot), terminal]
        let absent = needed.filter { $0.1 == nil }.map(\.0)
        return absent.isEmpty ? nil : absent.joined(separator: ", ") + " not installed"
    }

    private static func installed(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
