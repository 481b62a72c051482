import Foundation

/// The cameras this machine has, for `snapshare camera --list`.
///
/// On Linux, the Video4Linux2 capture devices under /sys/class/video4linux (a camera often has a
/// second node for metadata, which is left out), each with its name; on macOS, the video devices
/// FFmpeg's AVFoundation input lists.
enum CameraList {
    struct Camera: Sendable, Equatable {
        /// What `--camera-device` takes.
        let device: String
        package let name: String
    }

    /// Where to look next when there is no camera.
    static let hint = "snapshare camera --list shows the cameras found; without one, --camera-device lavfi:testsrc2 shows a test picture"

    /// The cameras found (an empty list when there are none).
    static func cameras(sysfs: String = "/sys/class/video4linux") throws(ClientError) -> [Camera] {
        #if os(macOS)
            return try avFoundationCameras()
        #else
            return videoForLinuxCameras(sysfs: sysfs)
        #endif
    }

    static func videoForLinuxCameras(sysfs: String) -> [Camera] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sysfs)) ?? []
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }
        return numbered.compactMap { _, node in
            let folder = "\(sysfs)/\(node)"
            // A camera's metadata node has index 1; its pictures come from index 0.
            if let index = read("\(folder)/index"), index != "0" { return nil }
            return Camera(device: "/dev/\(node)", name: read("\(folder)/name") ?? node)
        }
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    #if os(macOS)
        /// `ffmpeg -f avfoundation -list_devices true -i ""` prints the devices on standard error:
        /// a line "AVFoundation video devices:", then "[…] [0] FaceTime HD Camera" lines.
        static func avFoundationCameras() throws(ClientError) -> [Camera] {
            let environment = ProcessInfo.processInfo.environment
            guard let ffmpeg = ChildProcess.find("ffmpeg", searchPath: environment["PATH"]) else { throw CameraFailure.noFFmpeg }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ffmpeg)
            process.arguments = ["-hide_banner", "-f", "avfoundation", "-list_devices", "true", "-i", ""]
            let pipe = Pipe()
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
            do { try process.run() } catch { throw ClientError(.camera, "cannot start \(ffmpeg): \(error)") }
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return parseAVFoundation(text)
        }
    #endif

    /// The video devices in FFmpeg's AVFoundation listing.
    static func parseAVFoundation(_ text: String) -> [Camera] {
        var cameras: [Camera] = []
        var inVideo = false
        for line in text.split(whereSeparator: \.isNewline).map(String.init) {
            if line.contains("AVFoundation video devices") {
                inVideo = true
                continue
            }
            if line.contains("AVFoundation audio devices") {
                inVideo = false
                continue
            }
            guard inVideo, let close = line.range(of: "] [", options: .backwards) else { continue }
            let rest = line[close.upperBound...]
            guard let end = rest.firstIndex(of: "]") else { continue }
            let index = String(rest[..<end])
            cameras.append(Camera(device: index, name: rest[rest.index(after: end)...].trimmingCharacters(in: .whitespaces)))
        }
        return cameras
    }
}
