/// Which camera FFmpeg reads, and how it is named on the command line (`--camera-device`).
///
/// On Linux a camera is a Video4Linux2 device (`/dev/video0` by default; `2` means
/// `/dev/video2`); on macOS an AVFoundation device, by index (`0` by default) or name. Anything
/// written `lavfi:SPEC` is an FFmpeg filter source instead, such as
/// `lavfi:testsrc2=size=640x480:rate=15`: how tests and demos run without a camera.
enum CameraDevice: Sendable, Equatable, CustomStringConvertible {
    case videoForLinux(path: String)
    case avFoundation(name: String)
    case filter(spec: String)

    /// The largest frame asked of FFmpeg: previews are scaled down from it, posts shrunk from it.
    static let frameWidth = 640
    static let frameHeight = 480

    /// The default camera of this platform.
    static var platformDefault: CameraDevice {
        #if os(macOS)
            .avFoundation(name: "0")
        #else
            .videoForLinux(path: "/dev/video0")
        #endif
    }

    /// `text` as given to `--camera-device`, or the platform's default for nil. Throws `.usage`
    /// for an empty name or an empty `lavfi:` spec.
    static func parse(_ text: String?) throws(ClientError) -> CameraDevice {
        guard let text else { return platformDefault }
        guard !text.isEmpty else {
            throw ClientError(.usage, "--camera-device needs a camera: a device such as /dev/video0, or lavfi:SPEC")
        }
        if text.hasPrefix("lavfi:") {
            let spec = String(text.dropFirst("lavfi:".count))
            guard !spec.isEmpty else {
                throw ClientError(.usage, "lavfi: needs an FFmpeg source after it, such as lavfi:testsrc2=size=640x480:rate=15")
            }
            return .filter(spec: spec)
        }
        #if os(macOS)
            return .avFoundation(name: text)
        #else
            return .videoForLinux(path: text.allSatisfy(\.isNumber) ? "/dev/video\(text)" : text)
        #endif
    }

    package var description: String {
        switch self {
        case .videoForLinux(let path): path
        case .avFoundation(let name): "camera \(name)"
        case .filter(let spec): "lavfi:\(spec)"
        }
    }

    /// FFmpeg's arguments: read this device and write PPM pictures, one after another, no larger
    /// than 640x480 (never enlarged), to standard output.
    var ffmpegArguments: [String] {
        let input: [String] =
            switch self {
            case .videoForLinux(let path): ["-f", "v4l2", "-video_size", "\(Self.frameWidth)x\(Self.frameHeight)", "-i", path]
            case .avFoundation(let name):
                ["-f", "avfoundation", "-framerate", "30", "-video_size", "\(Self.frameWidth)x\(Self.frameHeight)", "-i", "\(name):none"]
            // A filter makes frames as fast as it can unless read at its own rate (-re).
            case .filter(let spec): ["-re", "-f", "lavfi", "-i", spec]
            }
        let fit = "scale=w='min(\(Self.frameWidth),iw)':h='min(\(Self.frameHeight),ih)':force_original_aspect_ratio=decrease"
        return ["-hide_banner", "-nostdin", "-loglevel", "error"] + input
            + ["-an", "-vf", fit, "-f", "image2pipe", "-vcodec", "ppm", "-"]
    }
}
