#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import Posix
import Synchronization

/// A running camera: FFmpeg reading `device` and writing PPM pictures to a pipe, and a thread
/// of ours reading them as they come. Only the newest picture is kept: a reader that falls
/// behind (a slow terminal) skips frames, it never queues them. `onChange` is called from that
/// thread after each new frame and when the camera fails, so a screen can wake and redraw.
///
/// It fails (`failure`) when FFmpeg cannot start or ends, when no frame arrives for
/// `frameTimeout` seconds (10 by default, `SNAPSHARE_CAMERA_TIMEOUT` overrides), or when what it
/// sends is not a picture; FFmpeg is then ended. `stop()` (also `deinit`) always ends it.
/// Start it from a thread that lasts as long as the program (the main one): see `ChildProcess`.
public final class CameraCapture: @unchecked Sendable {
    /// One picture from the camera; `number` counts from 1.
    public struct Frame: Sendable {
        public let number: Int
        public let image: RGBImage
    }

    public let device: CameraDevice
    /// Seconds without a frame before the camera counts as failed.
    public let frameTimeout: Double

    private struct State {
        var latest: Frame?
        var failure: ClientError?
        var stopping = false
        /// The reader has begun to end FFmpeg, so its pid may soon be reaped (and reused).
        var ending = false
        var finished = false
        var endedByItself = false
    }

    private let state = Mutex(State())
    private let readerDone = DispatchSemaphore(value: 0)
    private let process: ChildProcess
    private let onChange: @Sendable () -> Void

    /// The timeout `SNAPSHARE_CAMERA_TIMEOUT` gives (seconds, 0.1 to 600), else 10.
    public static func frameTimeout(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        environment["SNAPSHARE_CAMERA_TIMEOUT"].flatMap(Double.init).map { min(600, max(0.1, $0)) } ?? 10
    }

    /// Starts FFmpeg on `device`. Throws `.camera` when FFmpeg is not on the PATH of
    /// `environment` or cannot be started; later failures arrive in `failure`.
    public init(device: CameraDevice, environment: [String: String] = ProcessInfo.processInfo.environment,
                frameTimeout: Double? = nil, onChange: @escaping @Sendable () -> Void = {}) throws(ClientError) {
        self.device = device
        self.frameTimeout = frameTimeout ?? Self.frameTimeout(environment: environment)
        self.onChange = onChange
        guard let ffmpeg = ChildProcess.find("ffmpeg", searchPath: environment["PATH"]) else { throw CameraFailure.noFFmpeg }
        do {
            process = try ChildProcess(path: ffmpeg, arguments: device.ffmpegArguments,
                                       environment: environment.map { "\($0.key)=\($0.value)" })
        } catch {
            throw ClientError(.camera, "cannot start \(ffmpeg): \(error.reason)")
        }
        NamedThread.start("camera") { [self] in read() }
    }

    deinit { stop() }

    /// The newest frame, if one has arrived.
    public var latest: Frame? { state.withLock { $0.latest } }

    /// Why the camera stopped working, once it has.
    public var failure: ClientError? { state.withLock { $0.failure } }

    /// FFmpeg ended by itself with status 0 after sending frames: a source of a set length (a
    /// filter with a duration) that finished, rather than a camera that broke. `failure` still
    /// says it ended; a script may post `latest` anyway, a live preview may not go on.
    public var endedByItself: Bool { state.withLock { $0.endedByItself } }

    /// Waits until a frame newer than `number` arrives and returns it, or throws the camera's
    /// failure (a frame timeout included).
    public func frame(after number: Int) throws(ClientError) -> Frame {
        while true {
            let (frame, failure) = state.withLock { ($0.latest, $0.failure) }
            if let frame, frame.number > number { return frame }
            if let failure { throw failure }
            usleep(10_000)
        }
    }

    /// Ends FFmpeg and the reading thread; safe to call twice.
    public func stop() {
        // Signalled under the lock, so never after the reader has reaped FFmpeg: a pid reaped
        // may belong to another program by now.
        let pid = process.pid
        state.withLock { state in
            if !state.stopping && !state.ending { kill(pid, SIGTERM) }
            state.stopping = true
        }
        let finished = state.withLock { $0.finished }
        if !finished {
            _ = readerDone.wait(timeout: .now() + 2)
            readerDone.signal()
        }
    }

    /// The reading thread: frames from standard output, FFmpeg's words from standard error,
    /// until FFmpeg ends, a timeout, or `stop()`.
    private func read() {
        var decoder = PPMFrameDecoder()
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var frames = 0
        var lastFrame = MonotonicClock.milliseconds()
        var failure: ClientError?
        var outputOpen = true
        reading: while outputOpen {
            if state.withLock({ $0.stopping }) { break }
            var fds = [pollfd(fd: process.output, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: process.errorOutput, events: Int16(POLLIN), revents: 0)]
            _ = try? Syscall.poll(&fds, timeoutMilliseconds: 100)
            if fds[1].revents != 0, case .processed(let count)? = try? Syscall.read(process.errorOutput, into: &buffer), count > 0 {
                // The last 8 KiB are enough to say why.
                said += buffer[0..<count]
                if said.count > 8192 { said.removeFirst(said.count - 8192) }
            }
            if fds[0].revents != 0 {
                switch try? Syscall.read(process.output, into: &buffer) {
                case .processed(let count)? where count > 0:
                    do {
                        let (newest, finished) = try decoder.feed(buffer[0..<count])
                        if let newest {
                            frames += finished
                            lastFrame = MonotonicClock.milliseconds()
                            state.withLock { $0.latest = Frame(number: frames, image: newest) }
                            onChange()
                        }
                    } catch {
                        failure = CameraFailure.malformed(device, error.reason)
                        break reading
                    }
                case .wouldBlock?: break
                default: outputOpen = false
                }
            }
            if Double(MonotonicClock.milliseconds() - lastFrame) > frameTimeout * 1000 {
                failure = CameraFailure.noFrame(device, seconds: frameTimeout)
                break
            }
        }
        // What FFmpeg wrote last, then its end.
        if failure == nil, case .processed(let count)? = try? Syscall.read(process.errorOutput, into: &buffer), count > 0 {
            said += buffer[0..<count]
        }
        let stopping = state.withLock { state -> Bool in
            state.ending = true
            return state.stopping
        }
        let ending = process.terminate(graceMilliseconds: stopping ? 200 : 1000)
        if failure == nil && !stopping {
            let how = switch ending {
            case .exited(let code)?: "exit status \(code)"
            case .signalled(let signal)?: "killed by signal \(signal)"
            case nil: "ended"
            }
            failure = CameraFailure.ended(device, stderr: String(decoding: said, as: UTF8.self), ending: how, frames: frames)
        }
        state.withLock {
            if $0.failure == nil && !stopping { $0.failure = failure }
            $0.endedByItself = !stopping && frames > 0 && ending == .exited(0)
            $0.finished = true
        }
        readerDone.signal()
        onChange()
    }
}

extension CameraCapture.Frame {
    /// The picture as a JPEG (quality 90), ready for the same shrink-and-post path as a file.
    public func jpeg() throws(ClientError) -> [UInt8] {
        do { return try ImageCodec.encodeJPEG(image, quality: 90) } catch {
            throw ClientError(.local, "cannot encode the camera's picture: \(error.description)")
        }
    }
}
