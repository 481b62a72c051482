import SQL

/// A database's tables as the database itself describes them: names, columns with what they
/// hold and whether they may be NULL, primary keys, the tables each one's foreign keys point
/// to, and the columns a counter fills. Each engine reads its own (`StorageEngine.catalog`:
/// SQLite's `sqlite_schema` and `pragma_table_xinfo`, PostgreSQL's `information_schema` and
/// `pg_catalog`), so the schema is written only where each engine keeps it (`Migrations/`,
/// `PostgresSchema`) and everything else reads it from there: backup, restore and migrate
/// (`DatabaseCopy`), and the tests that hold the two engines to one schema.
struct SchemaCatalog: Sendable, Equatable {
    /// What a column holds, from its declared type.
    enum Kind: Sendable, Hashable, CustomStringConvertible {
        case integer, real, text, blob
        /// PostgreSQL's boolean. SQLite has none: its flags are integers checked to be 0 or 1.
        case flag
        /// A type the copy does not know (PostgreSQL's timestamps in its own bookkeeping).
        case other(String)

        /// The kind of a SQLite column, by SQLite's rules for a declared type's affinity
        /// (datatype3.html, 3.1): the first that matches of INT, CHAR/CLOB/TEXT, BLOB or none,
        /// REAL/FLOA/DOUB. A STRICT table allows only INTEGER, INT, REAL, TEXT, BLOB and ANY.
        init(sqliteType declared: String) {
            let type = declared.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .other(declared)
            }
        }

        /// The kind of a PostgreSQL column, from `information_schema.columns.data_type`.
        init(postgresType type: String) {
            switch type {
            case "smallint", "integer", "bigint": self = .integer
            case "real", "double precision": self = .real
            case "text", "character varying", "character": self = .text
            case "bytea": self = .blob
            case "boolean": self = .flag
            default: self = .other(type)
            }
        }

        /// What both engines' kinds of one column agree on: the same, or a flag where one engine
        /// has a boolean and the other an integer; nil when they disagree.
        func agreeing(with other: Kind) -> Kind? {
            switch (self, other) {
            case _ where self == other: self
            case (.flag, .integer), (.integer, .flag): .flag
            default: nil
            }
        }

        /// `column` of `row`, read as a column of this kind holds it; NULL as `.null`. A kind
        /// not known here is read as text.
        func value(_ column: String, in row: any SQLRow) -> SQLValue {
            if row.isNull(column) { return .null }
            return switch self {
            case .integer: .integer(row.int64(column))
            case .real: .real(row.double(column))
            case .text, .other: .text(row.string(column))
            case .blob: .blob(row.bytes(column))
            case .flag: .bool(row.bool(column))
            }
        }

        /// Whether the copy knows how to read and write it.
        var isKnown: Bool {
            if case .other = self { return false }
            return true
        }

        var description: String {
            switch self {
            case .integer: "integer"
            case .real: "real"
            case .text: "text"
            case .blob: "blob"
            case .flag: "flag"
            case .other(let type): type
            }
        }
    }

    /// One column: its name, what it holds, and whether it may be NULL.
    struct Column: Sendable, Equatable {
        var name: String
        var kind: Kind
        var nullable: Bool
        /// The type as the table declares it (`INTEGER`, `bigint`), for messages and casts.
        var declaredType: String
    }

    /// A column whose values a counter hands out (SQLite's AUTOINCREMENT, whose high-water mark
    /// is in `sqlite_sequence`; PostgreSQL's identity, whose sequence `pg_get_serial_sequence`
    /// finds). Its counter only ever grows, and a copy carries it over.
    struct Identity: Sendable, Hashable {
        var table: String
        var column: String
    }

    /// A foreign key: `columns` of a row name the row of `parent` whose `parentColumns` hold the
    /// same values.
    struct ForeignKey: Sendable, Hashable {
        var columns: [String]
        var parent: String
        var parentColumns: [String]
    }

    /// One table.
    struct Table: Sendable, Equatable {
        var name: String
        /// In the table's order.
        var columns: [Column]
        /// The primary key's columns in the key's order; empty when the table has none (on
        /// PostgreSQL the roster's names are unique by an index on their folded case instead).
        var primaryKey: [String]
        var foreignKeys: Set<ForeignKey>
        /// The column a counter fills, if any.
        var identity: String?

        func column(_ name: String) -> Column? { columns.first { $0.name == name } }

        /// The tables this one's foreign keys point to, itself left out.
        var parents: Set<String> { Set(foreignKeys.map(\.parent)).subtracting([name]) }
    }

    /// Every table, by name.
    var tables: [Table]

    init(tables: [Table]) {
        self.tables = tables.sorted { $0.name < $1.name }
    }

    subscript(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// The tables `names` in an order where every table comes after the tables its foreign keys
    /// point to (so each row inserted finds its parents), otherwise by name; a cycle throws.
    func parentsFirst(_ names: [String]) throws -> [String] {
        var waiting = Set(names)
        var ordered: [String] = []
        while !waiting.isEmpty {
            let ready = waiting.filter { name in self[name]?.parents.isDisjoint(with: waiting) ?? true }.sorted()
            guard let next = ready.first else {
                throw StoreError(
                    .internalError,
                    "the foreign keys of \(waiting.sorted().joined(separator: ", ")) form a cycle: "
                        + "no table can go first")
            }
            ordered.append(next)
            waiting.remove(next)
        }
        return ordered
    }
}
