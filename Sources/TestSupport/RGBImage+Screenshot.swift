import Imaging

/// Questions a test asks of a screenshot: where a colour is, how much of it, what the background is.
extension RGBImage {
    /// The whole image.
    package var bounds: PixelBox { PixelBox(x: 0, y: 0, width: width, height: height) }

    /// The smallest box holding every pixel of `region` (the whole image by default) that `matches`;
    /// nil when none does.
    package func boundingBox(in region: PixelBox? = nil, where matches: (Color) -> Bool) -> PixelBox? {
        var left = Int.max
        var top = Int.max
        var right = -1
        var bottom = -1
        forEachPixel(in: region) { x, y, color in
            guard matches(color) else { return }
            left = Swift.min(left, x)
            right = Swift.max(right, x)
            top = Swift.min(top, y)
            bottom = Swift.max(bottom, y)
        }
        return right < 0 ? nil : PixelBox(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// How many pixels of `region` (the whole image by default) match.
    package func count(in region: PixelBox? = nil, where matches: (Color) -> Bool) -> Int {
        var count = 0
        forEachPixel(in: region) { _, _, color in if matches(color) { count += 1 } }
        return count
    }

    /// The most common colour in the outer `border` pixels on every side: a terminal's background,
    /// whatever its theme, as long as the program draws mostly inside.
    package func backgroundColor(border: Int = 2) -> Color {
        var tally: [Color: Int] = [:]
        forEachPixel(in: nil) { x, y, color in
            if x < border || y < border || x >= width - border || y >= height - border { tally[color, default: 0] += 1 }
        }
        return tally.max { $0.value < $1.value }?.key ?? .black
    }

    /// Calls `body` with each pixel of `region`, clipped to the image, row by row.
    private func forEachPixel(in region: PixelBox?, _ body: (Int, Int, Color) -> Void) {
        guard let area = (region ?? bounds).intersection(bounds) else { return }
        pixels.withUnsafeBufferPointer { bytes in
            for y in area.y..<area.maxY {
                var offset = (y * width + area.x) * 3
                for x in area.x..<area.maxX {
                    body(x, y, Color(red: bytes[offset], green: bytes[offset + 1], blue: bytes[offset + 2]))
                    offset += 3
                }
            }
        }
    }
}

extension RGBImage.Color {
    /// Whether every channel is within `tolerance` of `other`'s.
    package func isNear(_ other: Self, tolerance: Int = 12) -> Bool {
        abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
            && abs(Int(blue) - Int(other.blue)) <= tolerance
    }
}
