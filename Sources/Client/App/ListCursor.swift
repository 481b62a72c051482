import TerminalUI

/// The selection in a list or a grid of items drawn a row at a time, and the rows scrolled past.
/// Every screen's list moves the same way through it: ↑ ↓ (and j k), ← → (and h l) in a grid,
/// PgUp PgDn by a screenful, Home End to the ends, the wheel, and a click that selects an item or,
/// on the selected one, opens it. `keys(_:grid:slot:open:)` gives a screen's key table those
/// entries.
///
/// Screens set `count` whenever their items change, call `scrollIntoView(visibleRows:)` when
/// they lay out a frame, and draw the items of `visibleItems`.
struct ListCursor {
    /// Items per row: 1 for a list, more for a grid of pictures.
    let columns: Int
    /// Whether an item can be selected (a feed's heading, say, cannot); moves skip the others.
    private let isSelectable: (Int) -> Bool
    /// How many items there are; the selection stays among them.
    var count = 0 {
        didSet { select(selected) }
    }
    private(set) var selected = 0
    /// The first row on screen, as last laid out.
    private(set) var firstRow = 0
    /// How many rows fit on screen, as last laid out.
    private(set) var visibleRows = 1

    init(columns: Int = 1, isSelectable: @escaping (Int) -> Bool = { _ in true }) {
        self.columns = max(1, columns)
        self.isSelectable = isSelectable
    }

    /// Selects the selectable item nearest to `index` (looking forward first).
    mutating func select(_ index: Int) {
        guard count > 0 else {
            selected = 0
            return
        }
        let target = min(count - 1, max(0, index))
        selected = nearestSelectable(from: target, forward: true) ?? target
    }

    /// Moves by `delta` items, landing on the nearest selectable one in the direction moved.
    mutating func move(by delta: Int) {
        guard count > 0 else { return }
        let target = min(count - 1, max(0, selected + delta))
        selected = nearestSelectable(from: target, forward: delta >= 0) ?? selected
    }

    /// Up a row; in a grid, not past the top row (it would land at the start).
    mutating func moveUp() {
        if selected >= columns || columns == 1 { move(by: -columns) }
    }

    /// A screenful up (negative) or down.
    mutating func movePages(_ pages: Int) {
        move(by: pages * max(1, visibleRows) * columns)
    }

    /// The wheel: three items in a list, a row in a grid, up (negative) or down.
    mutating func scroll(_ direction: Int) {
        move(by: direction * (columns == 1 ? 3 : columns))
    }

    /// A click on `slot`, the item on screen it hit counted from the first one shown (nil when
    /// none, and a slot past the rows laid out hits nothing either): selects it; true when it
    /// was the selected one already, to open.
    mutating func click(slot: Int?) -> Bool {
        guard let slot, slot >= 0, slot < visibleRows * columns else { return false }
        let index = firstRow * columns + slot
        guard (0..<count).contains(index), isSelectable(index) else { return false }
        if index == selected { return true }
        selected = index
        return false
    }

    /// Scrolls as little as needed for the selection to show in `visibleRows` rows (and no
    /// further than the last row allows): the layout step. Returns `visibleItems`.
    @discardableResult
    mutating func scrollIntoView(visibleRows: Int) -> Range<Int> {
        self.visibleRows = max(1, visibleRows)
        let selectedRow = selected / columns
        if selectedRow < firstRow { firstRow = selectedRow }
        if selectedRow >= firstRow + self.visibleRows { firstRow = selectedRow - self.visibleRows + 1 }
        let rows = (count + columns - 1) / columns
        firstRow = max(0, min(firstRow, rows - self.visibleRows))
        return visibleItems
    }

    /// The items on screen as last laid out, in order: what a screen draws.
    var visibleItems: Range<Int> {
        let first = min(count, firstRow * columns)
        return first..<min(count, first + visibleRows * columns)
    }

    /// Items scrolled out of view above the first row shown, as last laid out.
    var hiddenAbove: Int { visibleItems.lowerBound }

    /// Items after the last row shown, as last laid out.
    var hiddenBelow: Int { count - visibleItems.upperBound }

    /// "↑ N more" at the right end of the list's first row and "↓ N more" at the end of its last,
    /// when the scroll hides items there; `top` is the screen row of the first item shown.
    func drawScrollHints(into grid: inout CellGrid, area: Rect, top: Int, style: Style) {
        let rowsShown = (visibleItems.count + columns - 1) / columns
        for (hidden, arrow, row) in [(hiddenAbove, "↑", top), (hiddenBelow, "↓", top + max(0, rowsShown - 1))] where hidden > 0 {
            let hint = " \(arrow) \(hidden) more "
            grid.write(hint, column: area.x + area.width - DisplayWidth.of(hint), row: row, style: style)
        }
    }

    private func nearestSelectable(from index: Int, forward: Bool) -> Int? {
        for step in forward ? [1, -1] : [-1, 1] {
            var candidate = index
            while (0..<count).contains(candidate) {
                if isSelectable(candidate) { return candidate }
                candidate += step
            }
        }
        return nil
    }
}

extension ListCursor {
    /// The entries every list and grid shares, for the key table of a screen that keeps its
    /// cursor at `cursor`: the moves, and a click, whose item `slot` finds from where the
    /// screen laid its items out (see `click(slot:)`); `open` runs for a click on the selected
    /// item. ← → and h l move only in a `grid`; in a list they are the screen's.
    static func keys<Screen>(
        _ cursor: WritableKeyPath<Screen, ListCursor> & Sendable, grid: Bool = false,
        slot: @escaping @Sendable (Screen, MouseEvent) -> Int?,
        open: @escaping @Sendable (inout Screen) -> Void
    ) -> [KeyTable<Screen>.Binding] {
        func move(_ triggers: [KeyTrigger], _ step: @escaping @Sendable (inout ListCursor) -> Void) -> KeyTable<Screen>.Case {
            KeyTable<Screen>.Case(triggers) { screen in step(&screen[keyPath: cursor]) }
        }
        var moves = [
            move([.key(.up), .character("k")]) { $0.moveUp() },
            move([.key(.down), .character("j")]) { $0.move(by: $0.columns) },
        ]
        if grid {
            moves += [
                move([.key(.left), .character("h")]) { $0.move(by: -1) },
                move([.key(.right), .character("l")]) { $0.move(by: 1) },
            ]
        }
        moves += [
            move([.key(.pageUp)]) { $0.movePages(-1) }, move([.key(.pageDown)]) { $0.movePages(1) },
            move([.key(.home)]) { $0.move(by: -$0.count) }, move([.key(.end)]) { $0.move(by: $0.count) },
            move([.wheelUp]) { $0.scroll(-1) }, move([.wheelDown]) { $0.scroll(1) },
        ]
        return [
            KeyTable<Screen>.Binding("move", cases: moves),
            KeyTable<Screen>.Binding(
                [.click], "select; click the selected one to open it",
                event: { screen, event in
                    guard case .mouse(let mouse) = event else { return false }
                    if screen[keyPath: cursor].click(slot: slot(screen, mouse)) { open(&screen) }
                    return true
                }),
        ]
    }
}
