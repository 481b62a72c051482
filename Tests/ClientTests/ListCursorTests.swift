import TerminalUI
import Testing

@testable import Client

/// What an event did to the cursor, through the entries `ListCursor.keys` gives a key table.
enum Outcome: Equatable {
    /// The selection moved (or tried to, at an end).
    case moved
    /// The selected item was clicked: open it.
    case activated(Int)
}

/// A screen with nothing but a list: its cursor, where a click lands, and what it opened.
private struct ListScreen {
    var cursor: ListCursor
    let slot: (MouseEvent) -> Int?
    var opened: Int?
}

extension ListCursor {
    /// `event` run through the cursor's entries of a key table, as a screen runs it; nil when
    /// no entry takes it (it is the screen's).
    mutating func handle(_ event: InputEvent, slot: @escaping (MouseEvent) -> Int?) -> Outcome? {
        var screen = ListScreen(cursor: self, slot: slot)
        defer { self = screen.cursor }
        let table = KeyTable(
            Self.keys(
                \ListScreen.cursor, grid: columns > 1, slot: { $0.slot($1) },
                open: { $0.opened = $0.cursor.selected }))
        guard table.handle(event, on: &screen) else { return nil }
        return screen.opened.map(Outcome.activated) ?? .moved
    }
}

@Suite("List cursor")
struct ListCursorTests {
    static func key(_ key: Key) -> InputEvent { .key(key, []) }
    static func click(row: Int) -> InputEvent { .mouse(MouseEvent(action: .press(.left), column: 0, row: row)) }
    static func byRow(_ mouse: MouseEvent) -> Int? { mouse.row }

    @Test("a list moves by one, a page and to the ends, and never past either end")
    func listMoves() {
        var cursor = ListCursor()
        cursor.count = 50
        _ = cursor.scrollIntoView(visibleRows: 10)
        #expect(cursor.handle(Self.key(.up), slot: Self.byRow) == .moved)
        #expect(cursor.selected == 0)
        _ = cursor.handle(Self.key(.down), slot: Self.byRow)
        _ = cursor.handle(.key(.character("j"), []), slot: Self.byRow)
        #expect(cursor.selected == 2)
        _ = cursor.handle(Self.key(.pageDown), slot: Self.byRow)
        #expect(cursor.selected == 12)
        _ = cursor.handle(Self.key(.end), slot: Self.byRow)
        #expect(cursor.selected == 49)
        _ = cursor.handle(Self.key(.down), slot: Self.byRow)
        #expect(cursor.selected == 49)
        _ = cursor.handle(.mouse(MouseEvent(action: .wheelUp, column: 0, row: 0)), slot: Self.byRow)
        #expect(cursor.selected == 46)
        _ = cursor.handle(Self.key(.home), slot: Self.byRow)
        #expect(cursor.selected == 0)
        #expect(cursor.handle(Self.key(.left), slot: Self.byRow) == nil, "a list leaves ← → to its screen")
        #expect(cursor.handle(.key(.character("x"), []), slot: Self.byRow) == nil)
    }

    @Test("the view scrolls as little as needed to show the selection, and a click counts from the first row shown")
    func scrolling() {
        var cursor = ListCursor()
        cursor.count = 30
        #expect(cursor.scrollIntoView(visibleRows: 10) == 0..<10)
        cursor.select(15)
        #expect(cursor.scrollIntoView(visibleRows: 10) == 6..<16)
        cursor.select(10)
        #expect(cursor.scrollIntoView(visibleRows: 10) == 6..<16, "still in view: no scroll")
        // Row 2 on screen is item 8; clicking it selects it, clicking it again opens it.
        #expect(cursor.handle(Self.click(row: 2), slot: Self.byRow) == .moved)
        #expect(cursor.selected == 8)
        #expect(cursor.handle(Self.click(row: 2), slot: Self.byRow) == .activated(8))
        #expect(cursor.handle(Self.click(row: 20), slot: Self.byRow) == .moved, "below the items: nothing")
        #expect(cursor.selected == 8)
        // The list shrinks: the selection stays among the items and no blank rows are scrolled to.
        cursor.count = 12
        cursor.select(11)
        #expect(cursor.scrollIntoView(visibleRows: 10) == 2..<12)
        cursor.count = 3
        #expect(cursor.selected == 2)
        #expect(cursor.scrollIntoView(visibleRows: 10) == 0..<3)
        cursor.count = 0
        #expect(cursor.selected == 0 && cursor.scrollIntoView(visibleRows: 10).isEmpty)
    }

    @Test("a grid moves by a column sideways and by a row up and down, and scrolls by rows")
    func gridMoves() {
        var cursor = ListCursor(columns: 5)
        cursor.count = 23
        _ = cursor.scrollIntoView(visibleRows: 2)
        _ = cursor.handle(Self.key(.up), slot: Self.byRow)
        #expect(cursor.selected == 0, "up from the top row stays")
        _ = cursor.handle(Self.key(.right), slot: Self.byRow)
        _ = cursor.handle(Self.key(.down), slot: Self.byRow)
        #expect(cursor.selected == 6)
        for _ in 0..<3 { _ = cursor.handle(Self.key(.down), slot: Self.byRow) }
        #expect(cursor.selected == 21)
        _ = cursor.handle(Self.key(.down), slot: Self.byRow)
        #expect(cursor.selected == 22, "down from the last full row lands on the last item")
        #expect(cursor.scrollIntoView(visibleRows: 2) == 15..<23)
        #expect(cursor.handle(Self.click(row: 1), slot: Self.byRow) == .moved)
        #expect(cursor.selected == 16, "slot 1 of the rows shown")
    }

    @Test("moves skip items that cannot be selected, in the direction moved")
    func skipping() {
        let headings: Set<Int> = [0, 3, 4, 8]
        var cursor = ListCursor { !headings.contains($0) }
        cursor.count = 9
        #expect(cursor.selected == 1, "the first selectable item")
        _ = cursor.handle(Self.key(.down), slot: Self.byRow)
        _ = cursor.handle(Self.key(.down), slot: Self.byRow)
        #expect(cursor.selected == 5)
        _ = cursor.handle(Self.key(.up), slot: Self.byRow)
        #expect(cursor.selected == 2)
        _ = cursor.handle(Self.key(.end), slot: Self.byRow)
        #expect(cursor.selected == 7, "the last item is a heading: the one before it")
        _ = cursor.scrollIntoView(visibleRows: 10)
        #expect(cursor.handle(Self.click(row: 3), slot: Self.byRow) == .moved)
        #expect(cursor.selected == 7, "a heading is not selected by a click")
    }

    @Test("the items shown are the ones last laid out: a move scrolls nothing until the next layout")
    func visibleItemsFollowTheLayout() {
        var cursor = ListCursor()
        cursor.count = 30
        cursor.select(15)
        #expect(cursor.scrollIntoView(visibleRows: 10) == 6..<16)
        cursor.select(25)
        #expect(cursor.visibleItems == 6..<16, "drawing reads the layout; it does not scroll")
        cursor.scrollIntoView(visibleRows: 10)
        #expect(cursor.visibleItems == 16..<26)
        cursor.count = 3
        #expect(cursor.visibleItems == 3..<3, "items gone since the layout are not drawn")
    }
}
