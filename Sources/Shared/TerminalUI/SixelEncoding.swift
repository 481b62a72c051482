/// Sixel graphics: a picture already quantized (`ColorQuantizer`: median cut, dithering) drawn
/// pixel for pixel with its palette as the colour registers.
extension PictureEscapes {
    /// Sixel for a paletted picture (`indices`: `width` x `height` indices into `palette`, at most
    /// 256 colours, already at the size to show), its top left corner at a cell (0-based).
    ///
    /// Palette entry n is colour register n; only the registers the picture uses are defined.
    /// Each band of six pixel rows is read once, filling a row of sixels for every colour met in
    /// it; then each of those colours is drawn over the band (`$` returns to its start) up to its
    /// last sixel, runs of four or more equal sixels as `!n`. Colours absent from a band cost
    /// nothing there, so the time and size follow the picture, not the palette.
    public static func sixel(
        width: Int, height: Int, palette: [(red: UInt8, green: UInt8, blue: UInt8)], indices: [UInt8],
        column: Int, row: Int
    ) -> [UInt8] {
        precondition(width >= 0 && height >= 0 && indices.count == width * height, "indices holds width x height pixels")
        precondition(palette.count <= 256, "sixel has at most 256 colour registers here")
        var output: [UInt8] = []
        output.reserveCapacity(width * height / 2 + 1_024)
        output += [0x1B, UInt8(ascii: "[")]
        output.appendDecimal(row + 1)
        output.append(UInt8(ascii: ";"))
        output.appendDecimal(column + 1)
        output.append(UInt8(ascii: "H"))
        // P2 = 1: pixels no colour sets stay as they were.
        output += Array("\u{1B}P0;1;0q\"1;1;".utf8)
        output.appendDecimal(width)
        output.append(UInt8(ascii: ";"))
        output.appendDecimal(height)

        var used = [Bool](repeating: false, count: 256)
        for index in indices { used[Int(index)] = true }
        precondition(!used[palette.count...].contains(true), "an index is outside the palette")
        for (register, color) in palette.enumerated() where used[register] {
            output.append(UInt8(ascii: "#"))
            output.appendDecimal(register)
            output += Array(";2".utf8)
            // Registers take percentages.
            for channel in [color.red, color.green, color.blue] {
                output.append(UInt8(ascii: ";"))
                output.appendDecimal((Int(channel) * 100 + 127) / 255)
            }
        }

        // Per colour, one band's row of sixel bits (0-63); a row is zeroed as it is written out.
        var sixels = [UInt8](repeating: 0, count: palette.count * width)
        var last = [Int](repeating: -1, count: palette.count)
        var present: [Int] = []
        sixels.withUnsafeMutableBufferPointer { sixels in
            indices.withUnsafeBufferPointer { indices in
                for top in stride(from: 0, to: height, by: 6) {
                    for x in 0..<width {
                        for bit in 0..<min(6, height - top) {
                            let color = Int(indices[(top + bit) * width + x])
                            if last[color] < 0 { present.append(color) }
                            last[color] = x
                            sixels[color * width + x] |= 1 << bit
                        }
                    }
                    if top > 0 { output.append(UInt8(ascii: "-")) }
                    present.sort()
                    for (order, color) in present.enumerated() {
                        if order > 0 { output.append(UInt8(ascii: "$")) }
                        output.append(UInt8(ascii: "#"))
                        output.appendDecimal(color)
                        var x = color * width
                        let end = x + last[color]
                        while x <= end {
                            let bits = sixels[x]
                            var run = 1
                            sixels[x] = 0
                            while x + run <= end && sixels[x + run] == bits {
                                sixels[x + run] = 0
                                run += 1
                            }
                            output.appendSixels(63 + bits, count: run)
                            x += run
                        }
                        last[color] = -1
                    }
                    present.removeAll(keepingCapacity: true)
                }
            }
        }
        output += [0x1B, UInt8(ascii: "\\")]
        return output
    }
}

extension [UInt8] {
    /// `value` (not negative) in decimal ASCII.
    fileprivate mutating func appendDecimal(_ value: Int) {
        if value >= 10 { appendDecimal(value / 10) }
        append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `count` copies of the sixel `character`, as `!<count><character>` from four on.
    fileprivate mutating func appendSixels(_ character: UInt8, count: Int) {
        if count > 3 {
            append(UInt8(ascii: "!"))
            appendDecimal(count)
            append(character)
        } else {
            for _ in 0..<count { append(character) }
        }
    }
}
