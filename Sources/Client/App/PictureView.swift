import Imaging
import TerminalUI
import Wire

/// A picture on the whole window with one caption line (an `Overlay`): a snap opened, whose view
/// is spent (`r` reports it; closing it is for good), a snap an admin looks at, a photo of an
/// album or of a vacation. Its keys are one table, which also ends its caption: what the caption
/// offers is what the keys do.
enum PictureView {
    /// The keys over a picture; `snap`, the snap it shows, which `r` reports.
    static func keys(reporting snap: UInt64?) -> KeyTable<AppModel> {
        snap == nil ? Overlay.boxKeys : reportingKeys
    }

    private static let reportingKeys = KeyTable<AppModel>([
        .init([.character("r")], "reports it") { app in
            guard case .picture(_, _, let snap?)? = app.overlay else { return }
            app.closeOverlay()
            app.present(.report(snap, app: app))
        },
        .init([.anyKey], "closes it for good") { $0.closeOverlay() },
    ])

    /// The overlay showing `picture`: its caption says `description`, then its keys.
    static func overlay(_ picture: PictureCells, describing description: String, reporting snap: UInt64? = nil) -> Overlay {
        .picture(picture, caption: description + " · " + keys(reporting: snap).summary, reportable: snap)
    }

    /// Decodes a snap's picture on the local worker, so the screen never stalls on it, then shows
    /// it (`overlay`) and says `status`.
    static func show(_ bytes: [UInt8], describing description: String, reporting snap: UInt64? = nil, status: String, app: AppModel) {
        let limits = app.welcome?.displayLimits ?? Welcome.largestDecoded
        app.backend.performLocal(
            { () throws(ClientError) in
                do { return try ImageCodec.decode(bytes, limits: limits) } catch {
                    throw ClientError(.local, "The snap's picture cannot be shown: \(error)")
                }
            },
            then: { [weak app] result in
                guard let app else { return }
                switch result {
                case .success(let image):
                    app.overlay = overlay(PictureCells(image), describing: description, reporting: snap)
                    app.setStatus(status)
                case .failure(let error):
                    app.setStatus(error.message, isError: true)
                }
            })
    }

    /// Draws `picture` into `area` in half blocks when `pictures` says so (a graphics protocol's
    /// picture goes after the cells: `AppModel.protocolPicture`), and `caption` on the last row:
    /// one line, shortened at a word, never cut inside one.
    static func draw(
        _ picture: PictureCells, caption: String, into grid: inout CellGrid, area: Rect, pictures: PictureProtocol,
        depth: ColorDepth
    ) {
        if pictures == .halfblock { picture.draw(into: &grid, area: area, depth: depth) }
        grid.write(
            TextWrap.shortened(PrintableText.clean(caption), width: grid.columns), column: 0, row: grid.rows - 1, style: Style(bold: true))
    }
}
