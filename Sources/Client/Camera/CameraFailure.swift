/// What went wrong with the camera, worded for the student from what FFmpeg said.
enum CameraFailure {
    /// FFmpeg is not on the PATH.
    static let noFFmpeg = ClientError(
        .camera,
        "FFmpeg is not installed: install ffmpeg to use the camera (Debian and Ubuntu: sudo apt install ffmpeg; macOS: brew install ffmpeg)"
    )

    /// No frame arrived within `seconds`.
    static func noFrame(_ device: CameraDevice, seconds: Double) -> ClientError {
        ClientError(.camera, "no picture from \(device) within \(seconds.secondsText) s: is another program using it?")
    }

    /// FFmpeg ended (`ending`) having written `stderr`, after `frames` frames.
    static func ended(_ device: CameraDevice, stderr: String, ending: String, frames: Int) -> ClientError {
        let said = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let text = said.joined(separator: "\n").lowercased()
        let last = said.last.map { String($0.prefix(300)) }
        if text.contains("no such file or directory") || text.contains("no such device") {
            return ClientError(.camera, "no camera at \(device): \(CameraList.hint)")
        }
        if text.contains("device or resource busy") {
            return ClientError(.camera, "the camera \(device) is busy: another program is using it; close it and try again")
        }
        if text.contains("permission denied") || text.contains("not authorized") || text.contains("not permitted") {
            #if os(macOS)
                return ClientError(
                    .camera,
                    "this terminal may not use the camera: allow it in System Settings › Privacy & Security › Camera, "
                        + "then open the terminal again"
                )
            #else
                return ClientError(
                    .camera,
                    "not permitted to open \(device): add yourself to the video group (sudo usermod -aG video $USER, then log in again)")
            #endif
        }
        let what =
            frames == 0
            ? "FFmpeg could not read \(device)" : "FFmpeg stopped reading \(device) after \(frames) picture\(frames == 1 ? "" : "s")"
        return ClientError(.camera, what + " (\(ending))" + (last.map { ": \($0)" } ?? ""))
    }

    /// A frame FFmpeg sent could not be read.
    static func malformed(_ device: CameraDevice, _ reason: String) -> ClientError {
        ClientError(.camera, "the pictures from \(device) cannot be read: \(reason)")
    }
}

extension Double {
    /// 10 as "10", 0.5 as "0.5".
    fileprivate var secondsText: String { self == rounded() ? String(Int(self)) : String(self) }
}
