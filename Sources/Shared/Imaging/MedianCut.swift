/// A palette chosen for one picture by median cut over a histogram of its colours reduced to 5
/// bits a channel (32,768 cells, so memory does not grow with the picture).
///
/// Every cell keeps its pixel count and the sums of its pixels' channels, so a box's colour is
/// the true mean of the pixels it holds, not of cell centres. Starting from one box of all cells,
/// the box whose best cut lowers the squared error the most is cut, until there are `colors`
/// boxes or none can be cut. The best cut of a box is found over all three channels and every
/// plane between cells, from per-plane sums (the variance-minimising cut of Wu's quantiser
/// rather than the plain median): flat areas keep their few colours, detail gets the rest.
enum MedianCut {
    /// One occupied histogram cell.
    struct Cell {
        /// The cell's 5-bit red, green and blue.
        var coordinates: (UInt8, UInt8, UInt8)
        var count: Int
        /// Sums of the pixels' channels.
        var red: Int, green: Int, blue: Int

        func coordinate(_ axis: Int) -> Int {
            Int(axis == 0 ? coordinates.0 : axis == 1 ? coordinates.1 : coordinates.2)
        }
    }

    /// The 5-bit cell of a colour: red in the high bits.
    static func cell(red: Int, green: Int, blue: Int) -> Int {
        (red >> 3) << 10 | (green >> 3) << 5 | (blue >> 3)
    }

    /// The occupied cells of `image`'s histogram, in cell order.
    static func histogram(_ image: RGBImage) -> [Cell] {
        // Count, red, green and blue sums side by side for each of the 32,768 cells.
        var sums = [Int](repeating: 0, count: 32_768 * 4)
        sums.withUnsafeMutableBufferPointer { sums in
            image.pixels.withUnsafeBufferPointer { pixels in
                for offset in stride(from: 0, to: pixels.count, by: 3) {
                    let red = pixels[offset]
                    let green = pixels[offset + 1]
                    let blue = pixels[offset + 2]
                    let slot = cell(red: Int(red), green: Int(green), blue: Int(blue)) * 4
                    sums[slot] += 1
                    sums[slot + 1] += Int(red)
                    sums[slot + 2] += Int(green)
                    sums[slot + 3] += Int(blue)
                }
            }
        }
        var cells: [Cell] = []
        for index in 0..<32_768 where sums[index * 4] > 0 {
            let count = sums[index * 4]
            let red = sums[index * 4 + 1]
            let green = sums[index * 4 + 2]
            let blue = sums[index * 4 + 3]
            cells.append(
                Cell(
                    coordinates: (UInt8(index >> 10), UInt8(index >> 5 & 31), UInt8(index & 31)),
                    count: count, red: red, green: green, blue: blue))
        }
        return cells
    }

    /// At most `colors` colours for the pixels counted in `cells`, no two alike.
    static func palette(_ cells: [Cell], colors: Int) -> [RGBImage.Color] {
        guard !cells.isEmpty else { return [] }
        var boxes = [Box(cells: Array(cells.indices), of: cells)]
        while boxes.count < colors {
            // The box whose cut helps most; ties go to the first, so the result repeats.
            var chosen: Int?
            for (index, box) in boxes.enumerated() where box.cut != nil {
                if chosen == nil || box.cut!.gain > boxes[chosen!].cut!.gain { chosen = index }
            }
            guard let index = chosen, let cut = boxes[index].cut else { break }
            let (low, high) = boxes[index].cells.partitioned { cells[$0].coordinate(cut.axis) <= cut.plane }
            boxes[index] = Box(cells: low, of: cells)
            boxes.append(Box(cells: high, of: cells))
        }
        // Boxes never share a cell and each mean lies inside its box's cells, so the colours
        // are distinct.
        return boxes.map(\.mean)
    }

    /// A set of cells and the cut that would lower their squared error the most.
    struct Box {
        struct Cut {
            var axis: Int
            /// Cells at or below this 5-bit plane go to one side, the rest to the other.
            var plane: Int
            /// How much the squared error falls.
            var gain: Double
        }

        var cells: [Int]
        var mean: RGBImage.Color
        var cut: Cut?

        init(cells: [Int], of all: [Cell]) {
            self.cells = cells
            var total = Moments()
            for index in cells { total.add(all[index]) }
            func channel(_ sum: Int) -> UInt8 { UInt8((sum + total.count / 2) / total.count) }
            mean = RGBImage.Color(red: channel(total.red), green: channel(total.green), blue: channel(total.blue))
            guard cells.count > 1 else { return }
            for axis in 0..<3 {
                var planes = [Moments](repeating: Moments(), count: 32)
                for index in cells { planes[all[index].coordinate(axis)].add(all[index]) }
                // Σ|c|² is the same on both sides whatever the cut, so the error falls by
                // |low sum|²/low count + |high sum|²/high count - |sum|²/count.
                var low = Moments()
                for plane in 0..<31 {
                    low.merge(planes[plane])
                    let high = total.minus(low)
                    guard low.count > 0, high.count > 0 else { continue }
                    let gain = low.spread + high.spread - total.spread
                    if cut == nil || gain > cut!.gain { cut = Cut(axis: axis, plane: plane, gain: gain) }
                }
            }
        }
    }

    /// Pixel count and channel sums of some cells.
    struct Moments {
        var count = 0, red = 0, green = 0, blue = 0

        mutating func add(_ cell: Cell) {
            count += cell.count
            red += cell.red
            green += cell.green
            blue += cell.blue
        }

        mutating func merge(_ other: Moments) {
            count += other.count
            red += other.red
            green += other.green
            blue += other.blue
        }

        func minus(_ other: Moments) -> Moments {
            Moments(count: count - other.count, red: red - other.red, green: green - other.green, blue: blue - other.blue)
        }

        /// |sum|² / count: the part of the squared error a cut can change.
        var spread: Double {
            count == 0 ? 0 : (Double(red) * Double(red) + Double(green) * Double(green) + Double(blue) * Double(blue)) / Double(count)
        }
    }
}

extension Array {
    /// The elements that satisfy `belongs` and those that do not, each in their order.
    fileprivate func partitioned(_ belongs: (Element) -> Bool) -> ([Element], [Element]) {
        var yes: [Element] = []
        var no: [Element] = []
        for element in self { if belongs(element) { yes.append(element) } else { no.append(element) } }
        return (yes, no)
    }
}
