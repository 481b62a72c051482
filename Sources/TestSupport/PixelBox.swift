/// A rectangle of pixels in an image: its top-left pixel at (`x`, `y`), from the top-left corner.
package struct PixelBox: Sendable, Equatable, CustomStringConvertible {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// One past its right-most column.
    package var maxX: Int { x + width }
    /// One past its bottom row.
    package var maxY: Int { y + height }

    /// Whether `other` lies wholly inside it.
    package func contains(_ other: PixelBox) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    /// The part it shares with `other`; nil when they do not overlap.
    package func intersection(_ other: PixelBox) -> PixelBox? {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(maxX, other.maxX)
        let bottom = min(maxY, other.maxY)
        return right > left && bottom > top ? PixelBox(x: left, y: top, width: right - left, height: bottom - top) : nil
    }

    package var description: String { "\(width)x\(height) at (\(x), \(y))" }
}
