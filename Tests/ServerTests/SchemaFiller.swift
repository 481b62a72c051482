import Foundation
import SQL
import Testing

@testable import Server

/// Fills every column of every table of a new database with values made from its schema alone
/// (the database's own catalog, CHECK constraints and defaults): no table or column is named
/// here, so a column added to the schema is filled from its first day.
///
/// Each table gets up to three rows, parents before children. Row 0 holds NULL in every column
/// that allows it; rows 1 and 2 hold a value in every column, never the column's default, so a
/// column a copy forgot (the target then holds its default, or refuses the row) shows. Values
/// are tried hardest first: negative and large integers, non-ASCII text with quotes and control
/// characters (then a short plain one), blobs with every byte value, a 3 MiB blob in row 2
/// (outside keys, whose index entries have a size limit), then the literals the table's own
/// definition names (the `IN` lists and bounds of its checks); the first one every CHECK of the
/// table accepts is kept. A foreign key takes the parent's row of the same number (or its last).
/// A table whose checks allow fewer distinct keys (one row by `CHECK (id = 1)`) gets fewer rows.
struct SchemaFiller {
    let store: SQLStore
    var connection: any SQLConnection { store.engine.connection }
    var isSQLite: Bool { store.sqliteDatabase != nil }

    /// Fills every table but `except` (rows the schema made are replaced); returns the catalog.
    @discardableResult
    func fill(except: Set<String> = []) throws -> SchemaCatalog {
        let catalog = try store.engine.catalog()
        let order = try catalog.parentsFirst(catalog.tables.map(\.name).filter { !except.contains($0) })
        for name in order.reversed() { try connection.execute("DELETE FROM \(raw: name)") }
        var filled: [String: [[String: SQLValue]]] = [:]
        for name in order {
            let table = catalog[name]!
            let rules = try self.rules(of: table)
            var rows: [[String: SQLValue]] = []
            for number in 0..<3 {
                let row = try makeRow(number, of: table, rules: rules, parents: filled)
                let key = table.primaryKey
                if !key.isEmpty && rows.contains(where: { old in key.allSatisfy { old[$0] == row[$0] } }) { break }
                let columns = table.columns.map(\.name)
                try connection.execute(
                    """
                    INSERT INTO \(raw: name) (\(raw: columns.map { "\"\($0)\"" }.joined(separator: ", ")))
                    VALUES (\(list: columns.map { row[$0]! }))
                    """)
                rows.append(row)
            }
            filled[name] = rows
        }
        return catalog
    }

    /// What the schema says about a table's values: its CHECK expressions, the literals its
    /// definition names, and each column's default.
    struct Rules {
        var checks: [String]
        var literals: [String]
        var defaults: [String: SQLValue]
    }

    private func makeRow(
        _ number: Int, of table: SchemaCatalog.Table, rules: Rules,
        parents: [String: [[String: SQLValue]]]
    ) throws -> [String: SQLValue] {
        var row: [String: SQLValue] = [:]
        for column in table.columns {
            if number == 0 && column.nullable {
                row[column.name] = .null
            } else if let key = table.foreignKeys.first(where: { $0.columns.contains(column.name) }) {
                let parentRows = try #require(parents[key.parent], "\(key.parent) is filled before \(table.name)")
                let parent = parentRows[min(number, parentRows.count - 1)]
                row[column.name] = parent[key.parentColumns[key.columns.firstIndex(of: column.name)!]]
            } else {
                let candidates = self.candidates(
                    for: column, row: number, inKey: table.primaryKey.contains(column.name),
                    counted: table.identity == column.name, literals: rules.literals
                )
                .filter { !same($0, rules.defaults[column.name]) }
                var chosen: SQLValue?
                for candidate in candidates where try accepted(candidate, as: column, in: table, row: row, checks: rules.checks) {
                    chosen = candidate
                    break
                }
                let value: SQLValue = try #require(chosen, "no value for \(table.name).\(column.name) passes its checks: \(rules.checks)")
                row[column.name] = value
            }
        }
        return row
    }

    /// The values to try for `column` in row `row`, hardest first; a counter's column starts
    /// with large ids, so the copy's counters have something to carry.
    private func candidates(for column: SchemaCatalog.Column, row: Int, inKey: Bool, counted: Bool, literals: [String]) -> [SQLValue] {
        let numbers = literals.compactMap(Double.init).flatMap { [$0, -$0] }
        let offset = Int64(row)
        switch column.kind {
        case .integer:
            let large = (1 << 40) + 11 + offset
            let hard: [Int64] = counted ? [large] : [-(1 << 53) - 7 - offset, large, -5 - offset, 1000 + offset]
            return (hard + numbers.compactMap { Int64(exactly: $0) }).map(SQLValue.integer)
        case .real:
            let hard = [-1.0e300 - Double(row), 6.02214076e23 + Double(row), -45.678901234567 - Double(row), 63.5 - Double(row) / 4]
            return (hard + numbers).map(SQLValue.real)
        case .text:
            // Then a short lower-case one, for checks on length or characters (a handle's).
            let hard = "Zoë's “naïve” 名前 🐕 \"quoted\"\t\\ back-slash, row \(row)"
            return [.text(hard), .text("filled-\(row)")] + literals.map { .text($0) }
        case .blob:
            var hard = (0..<257).map { UInt8(truncatingIfNeeded: $0 * 7 + row) }
            if row == 2 && !inKey { hard = [UInt8](repeating: 0xA5, count: 3 << 20) + hard }
            let sized = numbers.compactMap { Int(exactly: $0) }.filter { (1...4096).contains($0) }.map { length in
                (0..<length).map { UInt8(truncatingIfNeeded: $0 * 13 + row + 1) }
            }
            return ([hard] + sized).map(SQLValue.blob)
        case .flag:
            return [.bool(true), .bool(false)]
        case .other(let type):
            Issue.record("\(column.name) is of type \(type), which the filler does not know")
            return []
        }
    }

    /// Whether every CHECK of the table holds (or is unknown) with `candidate` in `column` and
    /// the row's other values as chosen so far (NULL for those not chosen yet).
    private func accepted(
        _ candidate: SQLValue, as column: SchemaCatalog.Column, in table: SchemaCatalog.Table,
        row: [String: SQLValue], checks: [String]
    ) throws -> Bool {
        guard !checks.isEmpty else { return true }
        let values = table.columns.map { other -> SQL in
            let value = other.name == column.name ? candidate : row[other.name] ?? .null
            return "CAST(\(value) AS \(raw: other.declaredType)) AS \"\(raw: other.name)\""
        }
        let holds = SQL(raw: checks.map { "(\($0)) IS NOT FALSE" }.joined(separator: " AND "))
        do {
            return try connection.queryFirst("SELECT \(holds) AS ok FROM (SELECT \(SQL(joining: values, separator: ", "))) AS candidate") {
                $0.bool("ok")
            } ?? false
        } catch {
            return false // a value the column's type cannot hold (a large integer in a smallint)
        }
    }

    private func same(_ value: SQLValue, _ other: SQLValue?) -> Bool {
        guard let other else { return false }
        return Self.comparable(value) == Self.comparable(other)
    }

    /// A value as both engines store it: a flag is an integer.
    static func comparable(_ value: SQLValue) -> SQLValue {
        if case .bool(let flag) = value { return .integer(flag ? 1 : 0) }
        return value
    }

    /// The table's checks, literals and defaults, from the engine's own description of it.
    func rules(of table: SchemaCatalog.Table) throws -> Rules {
        let definitions: [String]
        var defaults: [String: String] = [:]
        if isSQLite {
            definitions = try connection.query("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = \(table.name)") {
                $0.string("sql")
            }
            for (name, value) in try connection.query(
                """
                SELECT name, dflt_value FROM pragma_table_xinfo(\(table.name)) WHERE dflt_value IS NOT NULL
                """, { ($0.string("name"), $0.string("dflt_value")) })
            { defaults[name] = value }
        } else {
            definitions = try connection.query(
                """
                SELECT pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c
                WHERE c.contype = 'c' AND c.conrelid = quote_ident(\(table.name))::regclass
                """
            ) { $0.string("definition") }
            for (name, value) in try connection.query(
                """
                SELECT column_name::text AS name, column_default::text AS value FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(table.name) AND column_default IS NOT NULL
                """, { ($0.string("name"), $0.string("value")) })
            { defaults[name] = value }
        }
        var values: [String: SQLValue] = [:]
        for column in table.columns {
            guard let expression = defaults[column.name] else { continue }
            values[column.name] = try connection.queryFirst("SELECT \(raw: expression) AS value") { row in
                column.kind.value("value", in: row)
            }
        }
        let tokens = definitions.map(SQLDefinitionText.init)
        return Rules(
            checks: tokens.flatMap(\.checks), literals: Array(Set(tokens.flatMap(\.literals))).sorted(),
            defaults: values)
    }

}

/// A table's definition as text (SQLite's `CREATE TABLE`, or PostgreSQL's `CHECK (...)`
/// constraint definitions): the expressions of its CHECK clauses and the literals it names.
/// Strings, quoted names and comments are skipped as SQL reads them, so a parenthesis or the
/// word CHECK inside one is not taken for syntax.
struct SQLDefinitionText {
    var checks: [String] = []
    var literals: [String] = []

    init(_ text: String) {
        let characters = Array(text)
        var index = 0
        var depth = 0
        var checkStart: (index: Int, depth: Int)?
        var awaitingCheckParenthesis = false
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'":
                var literal = ""
                index += 1
                while index < characters.count {
                    if characters[index] == "'" {
                        if index + 1 < characters.count && characters[index + 1] == "'" {
                            literal.append("'")
                            index += 2
                            continue
                        }
                        break
                    }
                    literal.append(characters[index])
                    index += 1
                }
                literals.append(literal)
            case "\"", "`":
                index += 1
                while index < characters.count && characters[index] != character { index += 1 }
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count && characters[index] != "\n" { index += 1 }
            case "/" where index + 1 < characters.count && characters[index + 1] == "*":
                index += 2
                while index + 1 < characters.count && !(characters[index] == "*" && characters[index + 1] == "/") { index += 1 }
                index += 1
            case "(":
                if awaitingCheckParenthesis {
                    checkStart = (index + 1, depth)
                    awaitingCheckParenthesis = false
                }
                depth += 1
            case ")":
                depth -= 1
                if let start = checkStart, start.depth == depth {
                    checks.append(String(characters[start.index..<index]))
                    checkStart = nil
                }
            case _ where character.isLetter || character == "_":
                var word = ""
                while index < characters.count && (characters[index].isLetter || characters[index].isNumber || characters[index] == "_") {
                    word.append(characters[index])
                    index += 1
                }
                if word.uppercased() == "CHECK" && checkStart == nil { awaitingCheckParenthesis = true }
                continue
            case _ where character.isNumber:
                var number = ""
                while index < characters.count
                    && (characters[index].isNumber || characters[index] == "." || characters[index] == "e"
                        || characters[index] == "E")
                {
                    number.append(characters[index])
                    index += 1
                }
                literals.append(number)
                continue
            default:
                if !character.isWhitespace { awaitingCheckParenthesis = false }
            }
            index += 1
        }
    }
}
