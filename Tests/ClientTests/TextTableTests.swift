import Testing

@testable import Client

@Suite struct TextTableTests {
    @Test func columnsAreLeftOrRightAlignedUnderTheirHeaders() {
        var table = TextTable(columns: [
            TextTable.Column("FEED"), TextTable.Column("SNAPS", alignment: .right), TextTable.Column("UPDATED"),
        ])
        table.append(["cats", "3", "5m ago"])
        table.append(["dogs-and-more", "1024", "just now"])
        #expect(
            table.render() == """
                FEED           SNAPS  UPDATED
                cats               3  5m ago
                dogs-and-more   1024  just now
                """)
    }

    @Test func linesHaveNoTrailingSpacesAndMissingCellsAreEmpty() {
        var table = TextTable(columns: [TextTable.Column("A"), TextTable.Column("B")])
        table.append(["long value"])
        table.append(["x", "y", "dropped"])
        #expect(table.render() == "A           B\nlong value\nx           y")
    }

    @Test func theHeaderCanBeLeftOut() {
        var table = TextTable(columns: [TextTable.Column("N", alignment: .right), TextTable.Column("NAME")])
        table.showsHeader = false
        table.gap = 1
        table.append(["7", "a"])
        table.append(["42", "b"])
        #expect(table.render() == " 7 a\n42 b")
    }

    @Test func anEmptyTableIsItsHeader() {
        #expect(TextTable(columns: [TextTable.Column("ONE"), TextTable.Column("TWO")]).render() == "ONE  TWO")
    }

    @Test func wideCharactersCountTwoColumns() {
        #expect(TextTable.displayWidth(of: "abc") == 3)
        #expect(TextTable.displayWidth(of: "写真") == 4)
        #expect(TextTable.displayWidth(of: "ｆｕｌｌ") == 8)
        #expect(TextTable.displayWidth(of: "한국") == 4)
        #expect(TextTable.displayWidth(of: "📷") == 2)
        #expect(TextTable.displayWidth(of: "👍🏽") == 2)
        #expect(TextTable.displayWidth(of: "❤️") == 2)
        #expect(TextTable.displayWidth(of: "e\u{301}té") == 3)
        var table = TextTable(columns: [TextTable.Column("NAME"), TextTable.Column("N", alignment: .right)])
        table.append(["写真", "1"])
        table.append(["cats", "22"])
        #expect(table.render() == "NAME   N\n写真   1\ncats  22")
    }

    @Test func controlCharactersCannotReachTheTerminal() {
        var table = TextTable(columns: [TextTable.Column("USER")])
        table.append(["evil\u{1B}[2Jname\nnext\u{9B}"])
        #expect(table.render() == "USER\nevil?[2Jname?next?")
    }
}
