import TerminalUI

/// The selection in a list or a grid of items drawn a row at a time, and the rows scrolled past.
/// Every screen's list moves the same way through it: ↑ ↓ (and j k), ← → (and h l) in a grid,
/// PgUp PgDn by a screenful, Home End to the ends, the wheel, and a click that selects an item or,
/// on the selected one, opens it.
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

    /// What an event did to the cursor.
    enum Outcome: Equatable {
        /// The selection moved (or tried to, at an end).
        case moved
        /// The selected item was clicked: open it.
        case activated(Int)
    }

    /// Selects the selectable item nearest to `index` (looking forward first).
    mutating func select(_ index: Int) {
        guard count > 0 else { selected = 0; return }
        let target = min(count - 1, max(0, index))
        selected = nearestSelectable(from: target, forward: true) ?? target
    }

    /// Moves by `delta` items, landing on the nearest selectable one in the direction moved.
    mutating func move(by delta: Int) {
        guard count > 0 else { return }
        let target = min(count - 1, max(0, selected + delta))
        selected = nearestSelectable(from: target, forward: delta >= 0) ?? selected
    }

    /// Moves for a key or the wheel, or selects (or opens) what a click hit. `slot` says which
    /// item on screen a mouse event points at, counted from the first one shown; nil when none
    /// (a slot past the rows laid out hits nothing either).
    /// Returns nil for an event that is not about moving, for the screen to handle.
    mutating func handle(_ event: InputEvent, slot: (MouseEvent) -> Int?) -> Outcome? {
        let page = max(1, visibleRows) * columns
        switch event {
        case .key(.up, _), .key(.character("k"), []): if selected >= columns || columns == 1 { move(by: -columns) }
        case .key(.down, _), .key(.character("j"), []): move(by: columns)
        case .key(.left, _), .key(.character("h"), []):
            guard columns > 1 else { return nil }
            move(by: -1)
        case .key(.right, _), .key(.character("l"), []):
            guard columns > 1 else { return nil }
            move(by: 1)
        case .key(.pageUp, _): move(by: -page)
        case .key(.pageDown, _): move(by: page)
        case .key(.home, _): move(by: -count)
        case .key(.end, _): move(by: count)
        case .mouse(let mouse):
            switch mouse.action {
            case .wheelUp: move(by: columns == 1 ? -3 : -columns)
            case .wheelDown: move(by: columns == 1 ? 3 : columns)
            case .press(.left):
                guard let slot = slot(mouse), slot >= 0, slot < visibleRows * columns else { return .moved }
                let index = firstRow * columns + slot
                guard (0..<count).contains(index), isSelectable(index) else { return .moved }
                if index == selected { return .activated(index) }
                selected = index
            default: break
            }
        default:
            return nil
        }
        return .moved
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
