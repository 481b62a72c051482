/// A drawing surface of terminal cells, each a braille character holding 2x4 dots, with a few
/// cells overwritten by labels (the map's pin numbers).
///
/// Dot (0, 0) is the top-left dot of the top-left cell; x grows to the right, y downwards.
/// Braille dots are about square on a terminal whose cells are twice as tall as they are wide,
/// so a projection may use the same scale on both axes.
struct BrailleCanvas: Sendable {
    /// A character drawn over a cell instead of its dots.
    struct Label: Sendable, Equatable {
        var character: Character
        /// Whether the label stands out (drawn in bold colour when colour is on).
        var isHighlighted: Bool

        init(_ character: Character, isHighlighted: Bool = true) {
            self.character = character
            self.isHighlighted = isHighlighted
        }
    }

    /// Width in cells.
    let columns: Int
    /// Height in cells.
    let rows: Int
    /// Width in dots.
    var dotWidth: Int { columns * 2 }
    /// Height in dots.
    var dotHeight: Int { rows * 4 }

    private var cells: [UInt8]
    private var labels: [Int: Label] = [:]

    /// A blank canvas; sizes below 1 are taken as 1.
    init(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        cells = Array(repeating: 0, count: self.columns * self.rows)
    }

    /// The bit of each dot within its cell, indexed [y % 4][x % 2], as Unicode numbers braille
    /// dots: 1 2 3 down the left column, 4 5 6 down the right, then 7 and 8 on the bottom row.
    private static let bits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

    /// Sets one dot; dots outside the canvas are ignored.
    mutating func set(x: Int, y: Int) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        cells[(y / 4) * columns + x / 2] |= Self.bits[y % 4][x % 2]
    }

    /// Whether a dot is set.
    func isSet(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return false }
        return cells[(y / 4) * columns + x / 2] & Self.bits[y % 4][x % 2] != 0
    }

    /// Draws a straight line between two points given in dot coordinates (fractions allowed),
    /// clipped to the canvas first, so a segment far outside costs nothing.
    mutating func line(from start: (x: Double, y: Double), to end: (x: Double, y: Double)) {
        guard let clipped = Self.clip(start, end, width: Double(dotWidth), height: Double(dotHeight)) else { return }
        var x0 = Self.dot(clipped.0.x)
        var y0 = Self.dot(clipped.0.y)
        let x1 = Self.dot(clipped.1.x)
        let y1 = Self.dot(clipped.1.y)
        // Bresenham over the whole octant range: error terms in integers, one dot per step.
        let dx = abs(x1 - x0)
        let dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1
        let sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        while true {
            set(x: x0, y: y0)
            if x0 == x1 && y0 == y1 { break }
            let doubled = 2 * error
            if doubled >= dy {
                error += dy
                x0 += sx
            }
            if doubled <= dx {
                error += dx
                y0 += sy
            }
        }
    }

    /// Puts a label over the cell that holds dot (x, y); returns false when that is off the canvas.
    @discardableResult
    mutating func label(_ label: Label, atDotX x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return false }
        labels[(y / 4) * columns + x / 2] = label
        return true
    }

    /// The label at a cell, if any.
    func label(column: Int, row: Int) -> Label? { labels[row * columns + column] }

    /// One line per row, each exactly `columns` characters wide (before any colour codes).
    /// Empty cells are spaces rather than the blank braille character, which some fonts draw
    /// as faint dots. With `highlight`, highlighted labels are wrapped in those escape codes.
    func render(highlight: (start: String, end: String)? = nil) -> [String] {
        (0..<rows).map { row in
            var line = ""
            for column in 0..<columns {
                let index = row * columns + column
                if let label = labels[index] {
                    if let highlight, label.isHighlighted {
                        line += highlight.start + String(label.character) + highlight.end
                    } else {
                        line.append(label.character)
                    }
                } else if cells[index] == 0 {
                    line += " "
                } else {
                    line.unicodeScalars.append(Unicode.Scalar(0x2800 + UInt32(cells[index]))!)
                }
            }
            return line
        }
    }

    /// The dot that holds a coordinate: dot n covers [n, n + 1).
    private static func dot(_ value: Double) -> Int {
        Int(value.rounded(.down))
    }

    /// Liang–Barsky clipping of a segment to [0, width) x [0, height); nil when none of it is inside.
    static func clip(
        _ a: (x: Double, y: Double), _ b: (x: Double, y: Double), width: Double, height: Double
    ) -> ((x: Double, y: Double), (x: Double, y: Double))? {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return nil }
        // Keep clipped ends strictly inside, so rounding down never lands on dot `width`.
        let maxX = width - 1e-9
        let maxY = height - 1e-9
        let dx = b.x - a.x
        let dy = b.y - a.y
        var t0 = 0.0
        var t1 = 1.0
        for (p, q) in [(-dx, a.x), (dx, maxX - a.x), (-dy, a.y), (dy, maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let r = q / p
            if p < 0 {
                if r > t1 { return nil }
                t0 = max(t0, r)
            } else {
                if r < t0 { return nil }
                t1 = min(t1, r)
            }
        }
        return ((a.x + t0 * dx, a.y + t0 * dy), (a.x + t1 * dx, a.y + t1 * dy))
    }
}
