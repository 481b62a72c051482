import Foundation

/// The Post tab's camera: a `CameraCapture` started on the app's thread (FFmpeg then ends with
/// the program, see `ChildProcess`), whose reader wakes the app at each frame, and the newest
/// frame made ready for the picture area off that thread. One frame is made ready at a time:
/// frames that arrive meanwhile are dropped and only the newest is taken next, so a slow
/// terminal or a busy machine never queues them, and the screen's thread only draws cells.
///
/// Used from the app's thread only; `stop()` (also `deinit`) ends FFmpeg.
final class LiveCamera {
    /// A frame and its picture, scaled for the box it was made ready for.
    struct Shown {
        let frame: CameraCapture.Frame
        let picture: PictureCells
    }

    let device: CameraDevice
    private let capture: CameraCapture
    private let backend: AppBackend
    /// The newest frame made ready; it stays still once taken.
    private(set) var shown: Shown?
    /// Space was pressed: `shown` is the picture, newer frames are not shown.
    private(set) var isTaken = false
    /// A frame is being made ready on the local worker.
    private var preparing = false
    private var stopped = false

    /// Starts FFmpeg on `device`; throws when it cannot (not installed). Later failures (no such
    /// camera, no frame in time, FFmpeg ended) are in `failure`.
    init(device: CameraDevice, environment: [String: String], backend: AppBackend) throws(ClientError) {
        self.device = device
        self.backend = backend
        capture = try CameraCapture(device: device, environment: environment, onChange: backend.wake)
    }

    deinit { capture.stop() }

    /// Why the camera stopped working, unless a picture is taken (it is kept whatever FFmpeg does).
    var failure: ClientError? { isTaken || stopped ? nil : capture.failure }

    /// When a frame newer than the one shown has arrived and none is being made ready: scales it
    /// for `columns` x `rows` cells on the local worker; it shows once ready. Called as each
    /// frame of the app is laid out.
    func refresh(columns: Int, rows: Int) {
        guard !isTaken, !stopped, !preparing, let frame = capture.latest, frame.number != shown?.frame.number else { return }
        preparing = true
        backend.performLocal(
            { () throws(ClientError) -> PictureCells in
                let picture = PictureCells(frame.image)
                picture.prepare(columns: columns, rows: rows)
                return picture
            },
            then: { [self] result in
                preparing = false
                if case .success(let picture) = result, !isTaken, !stopped { shown = Shown(frame: frame, picture: picture) }
            })
    }

    /// Keeps the frame shown as the picture; false when none has arrived yet.
    @discardableResult
    func take() -> Bool {
        isTaken = shown != nil
        return isTaken
    }

    /// The live picture again.
    func retake() { isTaken = false }

    /// Ends FFmpeg (waiting briefly for it); what is shown stays.
    func stop() {
        stopped = true
        capture.stop()
    }
}
