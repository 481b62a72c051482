import Foundation
import Imaging
import Posix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A running camera: FFmpeg reading `device` and writing PPM pictures to a pipe, and a thread
/// of ours reading them as they come. Only the newest picture is kept: a reader that falls
/// behind (a slow terminal) skips frames, it never queues them. `onChange` is called from that
/// thread after each new frame and when the camera fails, so a screen can wake and redraw.
///
/// It fails (`failure`) when FFmpeg cannot start or ends, when no frame arrives for
/// `frameTimeout` seconds (10 by default, `SNAPSHARE_CAMERA_TIMEOUT` overrides), or when what it
/// sends is not a picture; FFmpeg is then ended. `stop()` (also `deinit`) always ends it.
/// Start it from a thread that lasts as long as the program (the main one): see `ChildProcess`.
final class CameraCapture: @unchecked Sendable {
    /// One picture from the camera; `number` counts from 1.
    struct Frame: Sendable {
        let number: Int
        let image: RGBImage
    }

    var device: CameraDevice { reader.device }
    /// Seconds without a frame before the camera counts as failed.
    var frameTimeout: Double { reader.frameTimeout }

    /// What the reading thread holds: not the capture itself, so dropping the capture ends
    /// FFmpeg (`deinit`) even while the thread runs.
    private let reader: Reader

    /// The timeout `SNAPSHARE_CAMERA_TIMEOUT` gives (seconds, 0.1 to 600), else 10.
    static func frameTimeout(environment: [String: String] = ProcessInfo.processInfo.environment) -> Double {
        environment["SNAPSHARE_CAMERA_TIMEOUT"].flatMap(Double.init).map { min(600, max(0.1, $0)) } ?? 10
    }

    /// Starts FFmpeg on `device`. Throws `.camera` when FFmpeg is not on the PATH of
    /// `environment` or cannot be started; later failures arrive in `failure`.
    init(
        device: CameraDevice, environment: [String: String] = ProcessInfo.processInfo.environment,
        frameTimeout: Double? = nil, onChange: @escaping @Sendable () -> Void = {}
    ) throws(ClientError) {
        guard let ffmpeg = ChildProcess.find("ffmpeg", searchPath: environment["PATH"]) else { throw CameraFailure.noFFmpeg }
        let process: ChildProcess
        do {
            process = try ChildProcess(
                path: ffmpeg, arguments: device.ffmpegArguments,
                environment: environment.map { "\($0.key)=\($0.value)" })
        } catch {
            throw ClientError(.camera, "cannot start \(ffmpeg): \(error.reason)")
        }
        let wake: EventFD
        do { wake = try EventFD() } catch {
            process.terminate()
            throw ClientError(.camera, "cannot watch the camera: \(error)")
        }
        let reader = Reader(
            device: device, frameTimeout: frameTimeout ?? Self.frameTimeout(environment: environment),
            process: process, wake: wake, onChange: onChange)
        self.reader = reader
        NamedThread.start("camera") { reader.run() }
    }

    deinit { stop() }

    /// The newest frame, if one has arrived.
    var latest: Frame? { reader.state.withLock { $0.latest } }

    /// Why the camera stopped working, once it has.
    var failure: ClientError? { reader.state.withLock { $0.failure } }

    /// FFmpeg ended by itself with status 0 after sending frames: a source of a set length (a
    /// filter with a duration) that finished, rather than a camera that broke. `failure` still
    /// says it ended; a script may post `latest` anyway, a live preview may not go on.
    var endedByItself: Bool { reader.state.withLock { $0.endedByItself } }

    /// Waits until a frame newer than `number` arrives and returns it, or throws the camera's
    /// failure (a frame timeout included).
    func frame(after number: Int) throws(ClientError) -> Frame {
        reader.changed.lock()
        defer { reader.changed.unlock() }
        while true {
            let (frame, failure, finished) = reader.state.withLock { ($0.latest, $0.failure, $0.finished) }
            if let frame, frame.number > number { return frame }
            if let failure { throw failure }
            // Stopped by `stop()`: no frame and no failure will come.
            if finished { throw ClientError(.camera, "the camera was stopped") }
            reader.changed.wait()
        }
    }

    /// Ends FFmpeg and the reading thread (waiting up to 2 s for both); safe to call twice.
    func stop() {
        // The reading thread, woken, ends FFmpeg: only it signals and reaps the child, so no
        // signal can reach a pid the kernel has handed to someone else.
        let finished = reader.state.withLock { state -> Bool in
            state.stopping = true
            return state.finished
        }
        if !finished {
            reader.wake.signal()
            _ = reader.done.wait(timeout: .now() + 2)
        }
    }

    private struct State {
        var latest: Frame?
        var failure: ClientError?
        var stopping = false
        var finished = false
        var endedByItself = false
    }

    /// The reading thread's side: frames from FFmpeg's standard output, its words from standard
    /// error, until FFmpeg ends, a frame timeout, or `stop()`.
    private final class Reader: @unchecked Sendable {
        let device: CameraDevice
        let frameTimeout: Double
        let process: ChildProcess
        /// Written by `stop()` so the poll ends at once.
        let wake: EventFD
        let onChange: @Sendable () -> Void
        let state = Mutex(State())
        /// Broadcast after each new frame and when the thread ends, for `frame(after:)`.
        let changed = NSCondition()
        /// Signalled once when the thread has ended FFmpeg; `stop()` waits on it.
        let done = DispatchSemaphore(value: 0)
        private var said: [UInt8] = []
        private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        private var errorOpen = true

        init(device: CameraDevice, frameTimeout: Double, process: ChildProcess, wake: EventFD, onChange: @escaping @Sendable () -> Void) {
            (self.device, self.frameTimeout, self.process, self.wake, self.onChange) = (device, frameTimeout, process, wake, onChange)
        }

        func run() {
            var decoder = PPMFrameDecoder()
            var frames = 0
            var lastFrame = MonotonicClock.milliseconds()
            var failure: ClientError?
            var outputOpen = true
            reading: while outputOpen {
                if state.withLock({ $0.stopping }) { break }
                // A closed standard error is left out of the poll (a negative descriptor), so
                // its hang-up does not spin the loop.
                var fds = [
                    pollfd(fd: process.output, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: errorOpen ? process.errorOutput : -1, events: Int16(POLLIN), revents: 0),
                    pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0),
                ]
                let polled = MonotonicClock.milliseconds()
                _ = try? Syscall.poll(&fds, timeoutMilliseconds: 100)
                // A poll of 100 ms that took over a second: this process was stopped (Ctrl-Z),
                // and FFmpeg waited on us, not we on it. The timeout counts from now.
                if MonotonicClock.milliseconds() - polled > 1000 { lastFrame = MonotonicClock.milliseconds() }
                if fds[1].revents != 0 { readErrors() }
                if fds[0].revents != 0 {
                    switch try? Syscall.read(process.output, into: &buffer) {
                    case .processed(let count)? where count > 0:
                        do {
                            let (newest, finished) = try decoder.feed(buffer[0..<count])
                            if let newest {
                                frames += finished
                                lastFrame = MonotonicClock.milliseconds()
                                state.withLock { $0.latest = Frame(number: frames, image: newest) }
                                announce()
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
            let stopping = state.withLock { $0.stopping }
            if failure == nil && !stopping {
                // FFmpeg closed its output: it is ending; what it says last says why. Its standard
                // error is read until it closes (FFmpeg's exit closes it), then the exit awaited.
                let deadline = MonotonicClock.milliseconds() + 1000
                while errorOpen, MonotonicClock.milliseconds() < deadline,
                    (try? Syscall.waitUntilReadable(
                        process.errorOutput, timeoutMilliseconds: Int32(deadline - MonotonicClock.milliseconds()))) == true
                {
                    readErrors()
                }
                _ = process.ending(within: Int(max(0, deadline - MonotonicClock.milliseconds())))
                readErrors()
            }
            // FFmpeg blocked writing a frame would not hear SIGTERM until the write ends: the
            // pipe closed first makes that write fail at once.
            if stopping { process.closeOutput() }
            let ending = process.terminate(graceMilliseconds: stopping ? 200 : 500)
            if failure == nil && !stopping {
                let how =
                    switch ending {
                    case .exited(let code)?: "exit status \(code)"
                    case .signalled(let signal)?: "killed by signal \(signal)"
                    case nil: "ended"
                    }
                failure = CameraFailure.ended(device, stderr: String(decoding: said, as: UTF8.self), ending: how, frames: frames)
            }
            state.withLock {
                if !$0.stopping { $0.failure = failure }
                $0.endedByItself = !stopping && frames > 0 && ending == .exited(0)
                $0.finished = true
            }
            done.signal()
            announce()
        }

        /// Wakes `frame(after:)` and calls `onChange`, once the state says what changed.
        private func announce() {
            changed.lock()
            changed.broadcast()
            changed.unlock()
            onChange()
        }

        /// Whatever standard error holds now; the last 8 KiB are enough to say why.
        private func readErrors() {
            while errorOpen {
                switch try? Syscall.read(process.errorOutput, into: &buffer) {
                case .processed(let count)? where count > 0:
                    said += buffer[0..<count]
                    if said.count > 8192 { said.removeFirst(said.count - 8192) }
                case .wouldBlock?: return
                default: errorOpen = false
                }
            }
        }
    }
}

extension CameraCapture.Frame {
    /// The picture as a JPEG (quality 90), ready for the same shrink-and-post path as a file.
    func jpeg() throws(ClientError) -> [UInt8] {
        do { return try ImageCodec.encodeJPEG(image, quality: 90) } catch {
            throw ClientError(.local, "cannot encode the camera's picture: \(error.description)")
        }
    }
}
