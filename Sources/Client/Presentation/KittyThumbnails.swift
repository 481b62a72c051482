import Imaging
import TerminalUI

/// Thumbnails drawn through the kitty graphics protocol, each stored in the terminal once under
/// an image id and then only placed: a scroll or a redraw takes every placement away and puts
/// the ones on screen where they now are, without sending their pixels again.
///
/// At most `capacity` images stay stored; the one placed longest ago is freed first. A picture
/// placed larger than it was stored is sent again (under its id) at the new size.
final class KittyThumbnails {
    /// A thumbnail on screen: which picture, and the cells it is fitted into.
    struct Placement: Equatable {
        let picture: PictureCells
        let area: Rect

        static func == (a: Placement, b: Placement) -> Bool { a.picture === b.picture && a.area == b.area }
    }

    private struct Stored {
        let picture: PictureCells
        let id: Int
        var width: Int, height: Int
        var lastPlaced: Int
    }

    let capacity: Int
    private var stored: [ObjectIdentifier: Stored] = [:]
    private var placed: [Placement] = []
    private var nextID = 1
    private var frames = 0

    /// `capacity`: how many images to keep in the terminal.
    init(capacity: Int = 96) { self.capacity = capacity }

    /// What makes the screen show `placements` (nothing when it already does). `repainted`: the
    /// cells were cleared this frame, so kitty took every placement away itself.
    func frame(_ placements: [Placement], cell: PixelSize, repainted: Bool) -> [UInt8] {
        guard repainted || placements != placed else { return [] }
        frames += 1
        var output = placed.isEmpty || repainted ? [] : PictureEscapes.kittyDeleteAll
        for placement in placements {
            let spot = PicturePlacement.place(
                width: placement.picture.image.width, height: placement.picture.image.height,
                in: placement.area, cell: cell, pictures: .kitty)
            output += store(placement.picture, width: spot.width, height: spot.height)
            if let id = stored[ObjectIdentifier(placement.picture)]?.id {
                output += PictureEscapes.kittyPlace(id: id, column: spot.column, row: spot.row, columns: spot.columns, rows: spot.rows)
            }
        }
        placed = placements
        return output
    }

    /// Sends `picture` at `width` x `height` unless it is stored at least that large.
    private func store(_ picture: PictureCells, width: Int, height: Int) -> [UInt8] {
        let key = ObjectIdentifier(picture)
        if var entry = stored[key], entry.width >= width, entry.height >= height {
            entry.lastPlaced = frames
            stored[key] = entry
            return []
        }
        let image =
            width == picture.image.width && height == picture.image.height
            ? picture.image : ImageResampler.resize(picture.image, width: width, height: height)
        guard let png = try? ImageCodec.encodePNG(image) else { return [] }
        var output: [UInt8] = []
        let id: Int
        if let entry = stored[key] {
            id = entry.id
        } else {
            if stored.count >= capacity, let oldest = stored.min(by: { $0.value.lastPlaced < $1.value.lastPlaced }) {
                output += PictureEscapes.kittyFree(id: oldest.value.id)
                stored[oldest.key] = nil
            }
            id = nextID
            nextID += 1
        }
        // The entry holds the picture, so its identifier is not reused while it is stored.
        stored[key] = Stored(picture: picture, id: id, width: width, height: height, lastPlaced: frames)
        return output + PictureEscapes.kittyTransmit(png: png, id: id)
    }
}
