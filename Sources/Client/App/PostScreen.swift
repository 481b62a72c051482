import Foundation
import Imaging
import TerminalUI
import Wire

/// Post, as the class app has it: pick one of the ten bundled pictures from a grid (or type a
/// file's path with `o`), then exactly one feed beside the picture shown large, then Post.
final class PostScreen: AppScreen {
    private struct Choice {
        let name: String
        let bytes: [UInt8]
        let picture: PictureCells
    }

    private enum Phase {
        case pick
        case typingPath
        case chooseFeed
    }

    private unowned let app: AppModel
    private var samples: [Choice] = []
    private var loadError: String?
    private var sampleCursor = ListCursor(columns: PostScreen.gridColumns)
    private var selected: Int { sampleCursor.selected }
    /// A file typed with `o`; it replaces the sample while chosen.
    private var file: Choice?
    private var phase = Phase.pick
    private var path = TextField(label: "File: ", limit: 4096)
    private var feeds: [FeedInfo] = []
    private var feedCursor = ListCursor()
    private var feedIndex: Int { feedCursor.selected }
    private var posting = false
    private static let gridColumns = 5

    /// The ten samples are decoded off the screen's thread; the grid shows once they are.
    init(app: AppModel) {
        self.app = app
        app.backend.performLocal({ () throws(ClientError) -> [(name: String, bytes: [UInt8], image: RGBImage)] in
            try SampleLibrary.all().map { sample throws(ClientError) in
                let bytes = try sample.bytes()
                do { return ("\(sample.number) \(sample.name)", bytes, try ImageCodec.decode(bytes)) } catch {
                    throw ClientError(.local, "the bundled sample \(sample.number) cannot be read: \(error)")
                }
            }
        }, then: { [self] result in
            switch result {
            case .success(let decoded):
                samples = decoded.map { Choice(name: $0.name, bytes: $0.bytes, picture: PictureCells($0.image)) }
                sampleCursor.count = samples.count
            case .failure(let error):
                loadError = error.message
            }
        })
    }

    var keys: KeyTable<PostScreen> {
        switch phase {
        case .pick: Self.pickKeys
        case .typingPath: Self.pathKeys
        case .chooseFeed: Self.feedKeys
        }
    }

    private static let pickKeys = KeyTable<PostScreen>(
        ListCursor.keys(\.sampleCursor, grid: true,
                        slot: { screen, mouse in screen.layout.sampleBoxes.firstIndex { $0.contains(column: mouse.column, row: mouse.row) } },
                        open: { $0.chooseSample() })
        + [.init([.key(.enter)], "choose it, then a feed") { $0.chooseSample() },
           .init([.character("o")], "post a PNG or JPEG file instead") { $0.phase = .typingPath }])

    private static let pathKeys = KeyTable<PostScreen>([
        .init([.key(.enter)], "use this file") { $0.openFile() },
        .init([.key(.escape)], "back to the pictures") { $0.phase = .pick },
        .init([.typing], "the file's path (Ctrl-U clears)", event: { $0.path.handle($1) }),
    ])

    private static let feedKeys = KeyTable<PostScreen>(
        ListCursor.keys(\.feedCursor, slot: { screen, mouse in
            screen.layout.feedList.contains(column: mouse.column, row: mouse.row) ? mouse.row - screen.layout.feedList.y : nil
        }, open: { $0.post() })
        + [.init([.key(.enter), .character("p")], "post") { $0.post() },
           .init([.key(.escape), .key(.backspace)], "back to the pictures") { $0.phase = .pick }])

    var isTyping: Bool { phase == .typingPath }

    private var chosen: Choice? { file ?? (samples.indices.contains(selected) ? samples[selected] : nil) }

    /// The sample selected, rather than a typed file.
    private func chooseSample() {
        file = nil
        chooseFeed()
    }

    /// Reads and decodes the typed file off the screen's thread: a phone's 50-megapixel photo
    /// takes a while to decode, and the screen keeps answering meanwhile.
    private func openFile() {
        let typed = path.text.trimmingCharacters(in: .whitespaces)
        let expanded = (typed as NSString).expandingTildeInPath
        app.setStatus("Reading \(typed)…")
        app.backend.performLocal({ () throws(ClientError) -> ([UInt8], RGBImage) in
            guard let data = FileManager.default.contents(atPath: expanded) else {
                throw ClientError(.local, "Cannot read \(typed): no such file, or not readable")
            }
            let bytes = [UInt8](data)
            do { return (bytes, try ImageCodec.decode(bytes, limits: PostImage.shrinkable)) } catch {
                throw ClientError(.local, "\(typed) is not a PNG or JPEG this app can post: \(error)")
            }
        }, then: { [self] result in
            switch result {
            case .success(let (bytes, image)):
                file = Choice(name: (expanded as NSString).lastPathComponent, bytes: bytes, picture: PictureCells(image))
                app.setStatus("Chose \(typed)")
                chooseFeed()
            case .failure(let error):
                app.setStatus(error.message, isError: true)
            }
        })
    }

    private func chooseFeed() {
        phase = .chooseFeed
        app.request(retry: true, { session throws(ClientError) in try session.feeds() }, then: { [self] feeds in
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
        let (name, bytes, limits) = (chosen.name, chosen.bytes, welcome.postLimits)
        posting = true
        app.setStatus("Posting \(name) to \(feed)…")
        // Shrunk to the server's limits on the local worker (a big photo takes a while), then sent.
        app.backend.performLocal({ () throws(ClientError) in try PostImage.prepare(bytes, limits: limits) }, then: { [self] prepared in
            switch prepared {
            case .success(let prepared): send(prepared.bytes, to: feed)
            case .failure(let error):
                posting = false
                app.setStatus("Cannot post \(name): \(error.message)", isError: true)
            }
        })
    }

    /// Not retried on a lost connection: the user sees it failed and presses Post again.
    private func send(_ image: [UInt8], to feed: String) {
        app.backend.perform(retry: false, { session throws(ClientError) in try session.post(feed: feed, image: image) }, then: { [self] result in
            posting = false
            switch result {
            case .success(let snap):
                app.setStatus("Posted to \(snap.feed)")
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
        /// The box of each sample shown, in the order of `sampleCursor.visibleItems`.
        var sampleBoxes: [Rect] = []
        /// The feed list beside the chosen picture.
        var feedList = Rect(x: 0, y: 0, width: 0, height: 0)
    }

    private var layout = Layout()
    private static let feedListWidth = 30

    func layout(in area: Rect) {
        switch phase {
        case .pick, .typingPath:
            let columns = Self.gridColumns
            let rows = (samples.count + columns - 1) / columns
            let bottom = phase == .typingPath ? 2 : 0
            let cellWidth = area.width / columns
            let cellHeight = max(3, (area.height - 1 - bottom) / max(1, rows))
            layout.sampleBoxes = sampleCursor.scrollIntoView(visibleRows: rows).map { index in
                Rect(x: area.x + index % columns * cellWidth, y: area.y + 1 + index / columns * cellHeight, width: cellWidth, height: cellHeight)
            }
        case .chooseFeed:
            layout.feedList = Rect(x: area.x, y: area.y + 2, width: Self.feedListWidth, height: area.height - 3)
            feedCursor.scrollIntoView(visibleRows: layout.feedList.height)
        }
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        if let loadError {
            grid.write(loadError, column: area.x + 1, row: area.y)
            return
        }
        if samples.isEmpty && phase != .chooseFeed {
            grid.write("Loading the pictures…", column: area.x + 1, row: area.y)
            return
        }
        switch phase {
        case .pick, .typingPath: drawPicker(into: &grid, area: area)
        case .chooseFeed: drawFeeds(into: &grid, area: area)
        }
    }

    private func drawPicker(into grid: inout CellGrid, area: Rect) {
        grid.write("Pick a picture", column: area.x + 1, row: area.y, style: Style(bold: true))
        grid.write("Enter chooses · o posts a file instead", column: area.x + 18, row: area.y)
        for (index, box) in zip(sampleCursor.visibleItems, layout.sampleBoxes) {
            let sample = samples[index]
            let isSelected = index == selected
            app.drawThumbnail(sample.picture, into: &grid, area: Rect(x: box.x + 1, y: box.y, width: box.width - 2, height: box.height - 1))
            let label = (isSelected ? "▶ " : "  ") + sample.name
            grid.write(label, column: box.x + 1, row: box.y + box.height - 1,
                       style: Style(bold: isSelected, reverse: isSelected), width: box.width - 2)
        }
        if phase == .typingPath {
            path.draw(into: &grid, column: area.x + 1, row: area.y + area.height - 1, labelWidth: 6, width: area.width - 2, focused: true)
        }
    }

    private func drawFeeds(into grid: inout CellGrid, area: Rect) {
        grid.write("Post \(chosen?.name ?? "") to which feed?", column: area.x + 1, row: area.y, style: Style(bold: true))
        let list = layout.feedList
        for index in feedCursor.visibleItems {
            let isSelected = index == feedIndex
            grid.write((isSelected ? "◉ " : "○ ") + feeds[index].name, column: list.x + 1, row: list.y + index - feedCursor.firstRow,
                       style: Style(bold: isSelected, reverse: isSelected), width: list.width - 2)
        }
        grid.write(posting ? "Posting…" : "Enter posts · Esc goes back", column: area.x + 1, row: area.y + area.height - 1)
        if let chosen {
            app.drawThumbnail(chosen.picture, into: &grid, area: Rect(x: list.x + list.width, y: area.y + 1,
                                                                      width: area.width - list.width - 1, height: area.height - 1))
        }
    }
}
