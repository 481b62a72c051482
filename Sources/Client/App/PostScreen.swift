import Foundation
import Imaging
import TerminalUI
import Wire

/// Post, as the class app has it: pick the Camera tile or one of the ten bundled pictures from a
/// grid (or type a file's path with `o`), then exactly one feed beside the picture shown large,
/// then Post. The Camera tile shows the camera's live preview (`LiveCamera`) large until a
/// picture is taken; FFmpeg is ended on every way out of it (Esc, a failure, another tab, the
/// app closing).
final class PostScreen: AppScreen {
    private struct Choice {
        /// As the picker and the feed list name it.
        let name: String
        /// Where it came from, as the message after posting says it (as `post` does).
        let source: String
        let bytes: [UInt8]
        let picture: PictureCells
    }

    private enum Phase {
        case pick
        case typingPath
        /// The camera's live preview, or the picture taken with it.
        case camera
        case chooseFeed
    }

    private unowned let app: AppModel
    private var samples: [Choice] = []
    private var loadError: String?
    /// The grid's tiles: the Camera tile (0), then the samples.
    private var sampleCursor = ListCursor(columns: PostScreen.gridColumns)
    private var selected: Int { sampleCursor.selected }
    /// The sample of the tile selected; nil on the Camera tile.
    private var selectedSample: Choice? { samples.indices.contains(selected - 1) ? samples[selected - 1] : nil }
    /// A file typed with `o`, or the camera's picture; it replaces the sample while chosen.
    private var file: Choice?
    /// The camera while its preview shows.
    private var camera: LiveCamera?
    /// Leaving the camera's phase, however it happens (a post or a file finishing meanwhile
    /// included), stops the camera: FFmpeg never runs behind another screen.
    private var phase = Phase.pick {
        didSet {
            if oldValue == .camera && phase != .camera {
                camera?.stop()
                camera = nil
            }
        }
    }
    private var path = TextField(label: "File: ", limit: 4096)
    private var feeds: [FeedInfo] = []
    private var feedCursor = ListCursor()
    private var feedIndex: Int { feedCursor.selected }
    private var posting = false
    /// Four tiles a row: the Camera tile and the ten samples in three rows, labels whole in 80 columns.
    private static let gridColumns = 4

    /// The ten samples are decoded off the screen's thread; the grid shows once they are.
    init(app: AppModel) {
        self.app = app
        app.backend.performLocal(
            { () throws(ClientError) -> [(name: String, source: String, bytes: [UInt8], image: RGBImage)] in
                try SampleLibrary.all().map { sample throws(ClientError) in
                    let bytes = try sample.bytes()
                    do {
                        return (
                            "\(sample.number) \(sample.name)", "sample \(sample.number) (\(sample.name))", bytes,
                            try ImageCodec.decode(bytes)
                        )
                    } catch {
                        throw ClientError(.local, "the bundled sample \(sample.number) cannot be read: \(error)")
                    }
                }
            },
            then: { [self] result in
                switch result {
                case .success(let decoded):
                    samples = decoded.map { Choice(name: $0.name, source: $0.source, bytes: $0.bytes, picture: PictureCells($0.image)) }
                    sampleCursor.count = samples.count + 1
                case .failure(let error):
                    loadError = error.message
                }
            })
    }

    var keys: KeyTable<PostScreen> {
        switch phase {
        case .pick: Self.pickKeys
        case .typingPath: Self.pathKeys
        case .camera: Self.cameraKeys
        case .chooseFeed: Self.feedKeys
        }
    }

    private static let pickKeys = KeyTable<PostScreen>(
        ListCursor.keys(
            \.sampleCursor, grid: true,
            slot: { screen, mouse in screen.layout.sampleBoxes.firstIndex { $0.contains(column: mouse.column, row: mouse.row) } },
            open: { $0.chooseTile() })
            + [
                .init([.key(.enter)], "choose it (Camera: its live preview), then a feed") { $0.chooseTile() },
                .init([.character("o")], "post a PNG or JPEG file instead (type or drop its path)") { $0.startTypingPath() },
            ])

    private static let pathKeys = KeyTable<PostScreen>([
        .init([.key(.enter)], "use this file") { $0.openFile() },
        .init([.key(.escape)], "back to the pictures") { screen in
            screen.path.set("")
            screen.phase = .pick
        },
        .init([.typing], "the file's path (Ctrl-U clears)", event: { $0.path.handle($1) }),
    ])

    private static let cameraKeys = KeyTable<PostScreen>([
        .init([.character(" ")], "take the picture (it stays still)") { $0.camera?.take() },
        .init([.character("r")], "retake: the live preview again") { $0.camera?.retake() },
        .init([.key(.enter)], "keep the picture (taking it first), then a feed") { $0.keepCameraPicture() },
        .init([.key(.escape), .key(.backspace)], "back to the pictures (the camera stops)") { screen in
            screen.leaveCamera()
            screen.app.setStatus("The camera is off")
        },
    ])

    private static let feedKeys = KeyTable<PostScreen>(
        ListCursor.keys(
            \.feedCursor,
            slot: { screen, mouse in
                screen.layout.feedList.contains(column: mouse.column, row: mouse.row) ? mouse.row - screen.layout.feedList.y : nil
            }, open: { $0.post() })
            + [
                .init([.key(.enter), .character("p")], "post") { $0.post() },
                .init([.key(.escape), .key(.backspace)], "back to the pictures") { $0.phase = .pick },
            ])

    var isTyping: Bool { phase == .typingPath }

    private var chosen: Choice? { file ?? selectedSample }

    /// The tile selected: the camera's preview, or the sample rather than a typed file.
    private func chooseTile() {
        file = nil
        if selected == 0 { openCamera() } else { chooseFeed() }
    }

    // MARK: The camera

    /// Starts the camera `--camera-device` names; FFmpeg missing is said at once, other
    /// failures when the reader meets them (`checkCamera`).
    private func openCamera() {
        do {
            camera = try LiveCamera(device: app.cameraDevice, environment: app.environment, backend: app.backend)
        } catch {
            app.setStatus(error.message, isError: true)
            return
        }
        phase = .camera
        app.setStatus("The camera is on")
    }

    /// The camera stopped and let go of; the picker again unless `next` says otherwise.
    private func leaveCamera(to next: Phase = .pick) {
        camera?.stop()
        camera = nil
        phase = next
    }

    /// A failure of the camera said on the status line, back at the picker.
    private func checkCamera() {
        guard phase == .camera, let failure = camera?.failure else { return }
        leaveCamera()
        app.setStatus(failure.message, isError: true)
    }

    /// Enter in the preview: the picture taken (the frame shown, when none was), the camera
    /// stopped, the picture encoded as a JPEG off the screen's thread, then the feeds.
    private func keepCameraPicture() {
        guard let camera, camera.take(), let shown = camera.shown else {
            app.setStatus("No picture from the camera yet")
            return
        }
        camera.stop()
        let frame = shown.frame
        app.backend.performLocal(
            { () throws(ClientError) in try frame.jpeg() },
            then: { [self] result in
                // Esc pressed meanwhile: nothing to keep.
                guard phase == .camera, self.camera === camera else { return }
                switch result {
                case .success(let jpeg):
                    file = Choice(name: "camera picture", source: "the camera (\(app.cameraDevice))", bytes: jpeg, picture: shown.picture)
                    leaveCamera(to: .chooseFeed)
                    app.setStatus("The camera's picture is kept; the camera is off")
                    chooseFeed()
                case .failure(let error):
                    leaveCamera()
                    app.setStatus(error.message, isError: true)
                }
            })
    }

    func deactivate() {
        if phase == .camera { leaveCamera() }
    }

    func finish() {
        camera?.stop()
    }

    /// A new path starts empty: what was typed before and left with Esc is gone.
    private func startTypingPath() {
        path.set("")
        phase = .typingPath
    }

    /// Reads and decodes the typed (or dropped) file off the screen's thread: a phone's
    /// 50-megapixel photo takes a while to decode, and the screen keeps answering meanwhile.
    private func openFile() {
        let typed = path.text.trimmingCharacters(in: .whitespaces)
        let candidates = TypedPath.candidates(typed)
        guard !candidates.isEmpty else { return app.setStatus("Type the path of a PNG or JPEG file, or drop the file here", isError: true) }
        app.setStatus("Reading \(typed)…", kind: .progress)
        app.backend.performLocal(
            { () throws(ClientError) -> (String, [UInt8], RGBImage) in
                // The first that exists; else the last reading, unquoted, is the one to name.
                let path = candidates.first { FileManager.default.fileExists(atPath: $0) } ?? candidates[candidates.count - 1]
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ClientError(.local, "Cannot read \(path): no such file, or not readable")
                }
                let bytes = [UInt8](data)
                do { return (path, bytes, try ImageCodec.decode(bytes, limits: PostImage.shrinkable)) } catch {
                    throw ClientError(.local, "\(path) is not a PNG or JPEG this app can post: \(error)")
                }
            },
            then: { [self] result in
                switch result {
                case .success(let (path, bytes, image)):
                    file = Choice(name: (path as NSString).lastPathComponent, source: path, bytes: bytes, picture: PictureCells(image))
                    app.setStatus("Chose \(path)")
                    chooseFeed()
                case .failure(let error):
                    app.setStatus(error.message, isError: true)
                }
            })
    }

    private func chooseFeed() {
        phase = .chooseFeed
        app.request(
            retry: true, { session throws(ClientError) in try session.feeds() },
            then: { [self] feeds in
                let previous = self.feeds.indices.contains(feedIndex) ? self.feeds[feedIndex].name : nil
                self.feeds = feeds
                feedCursor.count = feeds.count
                feedCursor.select(feeds.firstIndex { $0.name == previous } ?? 0)
                if feeds.isEmpty { app.setStatus("There are no feeds yet: the instructor makes them", isError: true) }
            })
    }

    private func post() {
        guard !posting, let chosen, feeds.indices.contains(feedIndex), let welcome = app.welcome else { return }
        let feed = feeds[feedIndex].name
        let (name, source, bytes, limits) = (chosen.name, chosen.source, chosen.bytes, welcome.postLimits)
        posting = true
        app.setStatus("Posting \(name) to \(feed)…", kind: .progress)
        // Shrunk to the server's limits on the local worker (a big photo takes a while), then sent.
        app.backend.performLocal(
            { () throws(ClientError) in try PostImage.prepare(bytes, limits: limits) },
            then: { [self] prepared in
                switch prepared {
                case .success(let prepared):
                    send(
                        prepared.bytes, to: feed,
                        saying: { snap in
                            ([SnapPresenter.posted(snap, source: source)]
                                + [SnapPresenter.shrinkNote(prepared, source: source, limits: limits)].compactMap { $0 })
                                .joined(separator: " ")
                        })
                case .failure(let error):
                    posting = false
                    app.setStatus("Cannot post \(name): \(error.message)", isError: true)
                }
            })
    }

    /// Not retried on a lost connection: the user sees it failed and presses Post again. Once
    /// posted, `saying` words what was posted (its id, and a picture shrunk to fit).
    private func send(_ image: [UInt8], to feed: String, saying: @escaping (SnapInfo) -> String) {
        app.backend.perform(
            retry: false, { session throws(ClientError) in try session.post(feed: feed, image: image) },
            then: { [self] result in
                posting = false
                switch result {
                case .success(let snap):
                    app.setStatus(saying(snap))
                    file = nil
                    phase = .pick
                case .failure(let error):
                    app.report(error)
                }
            })
    }

    // MARK: Layout and drawing

    /// Where the last layout put what a click can hit.
    private struct Layout {
        /// The box of each tile shown (the Camera tile, then samples), in the order of
        /// `sampleCursor.visibleItems`.
        var sampleBoxes: [Rect] = []
        /// The camera's picture.
        var preview = Rect(x: 0, y: 0, width: 0, height: 0)
        /// The feed list beside the chosen picture.
        var feedList = Rect(x: 0, y: 0, width: 0, height: 0)
        /// The chosen picture, beside the feed list.
        var chosen = Rect(x: 0, y: 0, width: 0, height: 0)
    }

    private var layout = Layout()
    private static let feedListWidth = 30

    /// Also where the camera's frames are taken in: a failure goes back to the picker, and a new
    /// frame is made ready for the preview's size.
    func layout(in area: Rect) {
        checkCamera()
        switch phase {
        case .pick, .typingPath:
            let columns = Self.gridColumns
            let rows = (sampleCursor.count + columns - 1) / columns
            let bottom = phase == .typingPath ? 2 : 0
            let cellWidth = area.width / columns
            let cellHeight = max(3, (area.height - 1 - bottom) / max(1, rows))
            layout.sampleBoxes = sampleCursor.scrollIntoView(visibleRows: rows).map { index in
                Rect(
                    x: area.x + index % columns * cellWidth, y: area.y + 1 + index / columns * cellHeight, width: cellWidth,
                    height: cellHeight)
            }
        case .camera:
            layout.preview = Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: area.height - 2)
            camera?.refresh(columns: layout.preview.width, rows: layout.preview.height)
        case .chooseFeed:
            layout.feedList = Rect(x: area.x, y: area.y + 2, width: Self.feedListWidth, height: area.height - 3)
            layout.chosen = Rect(
                x: area.x + Self.feedListWidth, y: area.y + 1, width: area.width - Self.feedListWidth - 1, height: area.height - 1)
            feedCursor.scrollIntoView(visibleRows: layout.feedList.height)
        }
    }

    /// The samples' thumbnails in the picker (the Camera tile is drawn in lines), or the picture
    /// chosen beside the feeds; the camera's preview is half blocks (`drawCamera`).
    var thumbnails: [KittyThumbnails.Placement] {
        guard loadError == nil else { return [] }
        switch phase {
        case .pick, .typingPath:
            return zip(sampleCursor.visibleItems, layout.sampleBoxes).compactMap { index, box in
                samples.indices.contains(index - 1)
                    ? KittyThumbnails.Placement(picture: samples[index - 1].picture, area: Self.tileArea(box)) : nil
            }
        case .chooseFeed:
            return chosen.map { [KittyThumbnails.Placement(picture: $0.picture, area: layout.chosen)] } ?? []
        case .camera:
            return []
        }
    }

    /// Where a tile's picture goes in its box: all but its edges and its label's row.
    private static func tileArea(_ box: Rect) -> Rect { Rect(x: box.x + 1, y: box.y, width: box.width - 2, height: box.height - 1) }

    func draw(into grid: inout CellGrid, area: Rect) {
        if let loadError {
            grid.write(loadError, column: area.x + 1, row: area.y)
            return
        }
        if samples.isEmpty && (phase == .pick || phase == .typingPath) {
            grid.write("Loading the pictures…", column: area.x + 1, row: area.y)
            return
        }
        switch phase {
        case .pick, .typingPath: drawPicker(into: &grid, area: area)
        case .camera: drawCamera(into: &grid, area: area)
        case .chooseFeed: drawFeeds(into: &grid, area: area)
        }
    }

    private func drawPicker(into grid: inout CellGrid, area: Rect) {
        grid.write("Pick a picture", column: area.x + 1, row: area.y, style: Style(bold: true))
        grid.write("Enter chooses · o posts a file instead", column: area.x + 18, row: area.y)
        app.draw(thumbnails, into: &grid)
        for (index, box) in zip(sampleCursor.visibleItems, layout.sampleBoxes) {
            let isSelected = index == selected
            let name: String
            if index == 0 {
                Self.drawCameraTile(into: &grid, area: Self.tileArea(box))
                name = "Camera"
            } else {
                name = samples[index - 1].name
            }
            let label = (isSelected ? "▶ " : "  ") + name
            grid.write(
                label, column: box.x + 1, row: box.y + box.height - 1,
                style: Style(bold: isSelected, reverse: isSelected), width: box.width - 2)
        }
        if phase == .typingPath {
            path.draw(into: &grid, column: area.x + 1, row: area.y + area.height - 1, labelWidth: 6, width: area.width - 2, focused: true)
        }
    }

    /// A camera drawn in lines, with what the tile does under it when there is room.
    private static func drawCameraTile(into grid: inout CellGrid, area: Rect) {
        let drawing = ["  ┌─┐    ", "┌─┘ └───┐", "│ (( )) │", "└───────┘"]
        let lines =
            area.width >= 12 && area.height >= drawing.count + 1
            ? drawing + ["", "live preview"]
            : area.width >= 9 && area.height >= drawing.count ? drawing : ["live preview"]
        let shown = lines.prefix(area.height)
        let top = area.y + (area.height - shown.count) / 2
        for (row, line) in shown.enumerated() {
            let width = DisplayWidth.of(line)
            grid.write(line, column: area.x + max(0, (area.width - width) / 2), row: top + row, width: area.width)
        }
    }

    private func drawCamera(into grid: inout CellGrid, area: Rect) {
        grid.write("Camera \(app.cameraDevice)", column: area.x + 1, row: area.y, style: Style(bold: true), width: area.width - 2)
        let keys =
            camera?.isTaken == true
            ? "Taken · Enter chooses a feed · r retakes · Esc goes back"
            : "Space takes · Enter takes and chooses a feed · Esc goes back"
        grid.write(keys, column: area.x + 1, row: area.y + area.height - 1, width: area.width - 2)
        let box = layout.preview
        // Half blocks, a cell grid the screen writes only where it changed: a protocol picture would
        // be encoded and sent whole for every frame.
        if let shown = camera?.shown {
            shown.picture.draw(into: &grid, area: box, depth: app.depth)
        } else {
            let waiting = "Waiting for the first picture…"
            grid.write(waiting, column: box.x + max(0, (box.width - waiting.count) / 2), row: box.y + box.height / 2)
        }
    }

    private func drawFeeds(into grid: inout CellGrid, area: Rect) {
        grid.write("Post \(chosen?.name ?? "") to which feed?", column: area.x + 1, row: area.y, style: Style(bold: true))
        let list = layout.feedList
        for index in feedCursor.visibleItems {
            let isSelected = index == feedIndex
            grid.write(
                (isSelected ? "◉ " : "○ ") + feeds[index].name, column: list.x + 1, row: list.y + index - feedCursor.firstRow,
                style: Style(bold: isSelected, reverse: isSelected), width: list.width - 2)
        }
        grid.write(posting ? "Posting…" : "Enter posts · Esc goes back", column: area.x + 1, row: area.y + area.height - 1)
        app.draw(thumbnails, into: &grid)
    }
}
