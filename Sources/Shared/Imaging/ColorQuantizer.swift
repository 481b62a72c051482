extension RGBImage {
    /// This picture in at most `colors` colours (clamped to 2...256), for outputs with colour
    /// registers such as sixel. A picture with no more colours than that keeps exactly its own,
    /// undithered; otherwise the palette comes from `MedianCut` and, when `dither`, each pixel's
    /// error is spread to its neighbours (Floyd–Steinberg, serpentine), so gradients do not band.
    /// The same picture always gives the same result.
    public func quantized(colors: Int, dither: Bool = true) -> IndexedImage {
        let limit = min(max(colors, 2), 256)
        let cells = MedianCut.histogram(self)
        // Distinct colours are at least as many as occupied cells: only then can it be exact.
        if cells.count <= limit, let exact = exactlyIndexed(limit: limit) { return exact }
        let palette = MedianCut.palette(cells, colors: limit)
        let nearest = NearestColor(palette)
        let indices = dither ? nearest.diffused(self) : nearest.mapped(self)
        return IndexedImage(width: width, height: height, palette: palette, indices: indices)
    }

    /// The picture over its own colours in order of first appearance, or nil when it has more
    /// than `limit`.
    private func exactlyIndexed(limit: Int) -> IndexedImage? {
        var palette: [Color] = []
        var slots: [UInt32: UInt8] = [:]
        var indices = [UInt8](repeating: 0, count: width * height)
        var last: (key: UInt32, index: UInt8)?
        for pixel in 0..<(width * height) {
            let key = UInt32(pixels[pixel * 3]) << 16 | UInt32(pixels[pixel * 3 + 1]) << 8 | UInt32(pixels[pixel * 3 + 2])
            if let last, last.key == key {
                indices[pixel] = last.index
                continue
            }
            let index: UInt8
            if let known = slots[key] {
                index = known
            } else {
                guard palette.count < limit else { return nil }
                index = UInt8(palette.count)
                slots[key] = index
                palette.append(Color(red: pixels[pixel * 3], green: pixels[pixel * 3 + 1], blue: pixels[pixel * 3 + 2]))
            }
            indices[pixel] = index
            last = (key, index)
        }
        return IndexedImage(width: width, height: height, palette: palette, indices: indices)
    }
}

/// The palette entry nearest a colour (squared RGB distance), looked up through a table over
/// the colour's 5-bit cell and filled as cells are first met: a photo meets a few thousand of
/// the 32,768 cells, so almost every pixel costs one table read instead of a palette search.
private final class NearestColor {
    /// The palette's channels, three a colour.
    let channels: [Int]
    /// Per 5-bit cell: the palette index nearest the cell's centre, or -1 before first use.
    private let table: UnsafeMutablePointer<Int16>

    init(_ palette: [RGBImage.Color]) {
        channels = palette.flatMap { [Int($0.red), Int($0.green), Int($0.blue)] }
        table = .allocate(capacity: 32_768)
        table.initialize(repeating: -1, count: 32_768)
    }

    deinit { table.deallocate() }

    /// The palette index for channels in 0...255.
    @inline(__always)
    func index(_ red: Int, _ green: Int, _ blue: Int) -> Int {
        let cell = MedianCut.cell(red: red, green: green, blue: blue)
        let known = table[cell]
        return known >= 0 ? Int(known) : search(cell)
    }

    /// Fills the table for `cell` with the palette entry nearest its centre.
    private func search(_ cell: Int) -> Int {
        let centre = ((cell >> 10) << 3 | 4, ((cell >> 5) & 31) << 3 | 4, (cell & 31) << 3 | 4)
        var best = 0
        var bestDistance = Int.max
        for index in 0..<channels.count / 3 {
            let dr = channels[index * 3] - centre.0
            let dg = channels[index * 3 + 1] - centre.1
            let db = channels[index * 3 + 2] - centre.2
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        table[cell] = Int16(best)
        return best
    }

    /// Every pixel as its nearest palette index.
    func mapped(_ image: RGBImage) -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: image.width * image.height)
        image.pixels.withUnsafeBufferPointer { pixels in
            for pixel in indices.indices {
                indices[pixel] = UInt8(index(Int(pixels[pixel * 3]), Int(pixels[pixel * 3 + 1]), Int(pixels[pixel * 3 + 2])))
            }
        }
        return indices
    }

    /// Every pixel as a palette index, each pixel's error (in sixteenths) passed on to the
    /// pixels not yet visited: 7 ahead, 3, 5 and 1 on the next row. Rows alternate direction,
    /// which keeps the error from drifting into diagonal streaks.
    func diffused(_ image: RGBImage) -> [UInt8] {
        let width = image.width
        let rowLength = (width + 2) * 3
        var indices = [UInt8](repeating: 0, count: width * image.height)
        // The errors owed to this pixel row and to the next, with a pixel of margin at each end.
        var errors = [Int](repeating: 0, count: rowLength * 2)
        indices.withUnsafeMutableBufferPointer { indices in
            errors.withUnsafeMutableBufferPointer { errors in
                image.pixels.withUnsafeBufferPointer { pixels in
                    var here = 0
                    var below = rowLength
                    for y in 0..<image.height {
                        let forward = y % 2 == 0
                        let ahead = forward ? 3 : -3
                        for step in 0..<width {
                            let x = forward ? step : width - 1 - step
                            let pixel = y * width + x
                            let at = here + (x + 1) * 3
                            let under = below + (x + 1) * 3
                            let red = min(255, max(0, Int(pixels[pixel * 3]) + (errors[at] + 8) >> 4))
                            let green = min(255, max(0, Int(pixels[pixel * 3 + 1]) + (errors[at + 1] + 8) >> 4))
                            let blue = min(255, max(0, Int(pixels[pixel * 3 + 2]) + (errors[at + 2] + 8) >> 4))
                            let chosen = index(red, green, blue)
                            indices[pixel] = UInt8(chosen)
                            for channel in 0..<3 {
                                let error = (channel == 0 ? red : channel == 1 ? green : blue) - channels[chosen * 3 + channel]
                                errors[at + ahead + channel] += error * 7
                                errors[under - ahead + channel] += error * 3
                                errors[under + channel] += error * 5
                                errors[under + ahead + channel] += error
                            }
                        }
                        (here, below) = (below, here)
                        for offset in below..<(below + rowLength) { errors[offset] = 0 }
                    }
                }
            }
        }
        return indices
    }
}
