import CommandLineParsing
import JSON
import Wire

/// `admin create-class` and `admin classes`: a department's classes, offline (they work while the
/// server runs, too).
extension ServerCommandLine {
    /// `admin create-class HANDLE --name NAME --owner USER [--code CODE]`: a class and its owner; a
    /// class code is made when none is given, and printed either way.
    static func createClass(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let handle = parsed.positional(0) ?? ""
        action.target = "class \(handle)"
        if let problem = ClassRules.validateHandle(handle) { throw parsed.usageError(problem) }
        guard let rawName = parsed.string("--name") else {
            throw parsed.usageError("--name gives the class its name, e.g. --name 'CS193P Fall 2026'")
        }
        let name: String
        switch ClassRules.normalizedName(rawName) {
        case .success(let text): name = text
        case .failure(let problem): throw parsed.usageError(problem.message)
        }
        guard let ownerName = parsed.string("--owner") else {
            throw parsed.usageError("--owner names the account that has the class (its instructor)")
        }
        let code = parsed.string("--code") ?? ReadableCode.make(groups: 2)
        if let problem = ClassRules.validateCode(code) { throw parsed.usageError(problem) }
        let now = WallClock.system.now()
        let made = try OfflineAdmin.write(action, create: false) { store in
            guard let owner = try store.user(named: ownerName) else { throw StoreError(.notFound, "no user named \(ownerName)") }
            return (try store.createClass(NewClass(handle: handle, name: name, code: code), ownerID: owner.id, at: now), owner.name)
        }
        print("Made the class \(made.0.handle) (\(made.0.name)), owned by \(made.1). Students join it with the class code: \(code)")
        return 0
    }

    /// `admin classes [--json]`: every class with its owners, how many staff and students, its
    /// code and whether its term has ended.
    static func classes(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        action.target = "the classes"
        let store = try Backup.source(for: action.store)
        let classes = try store.allClasses().map { ($0, try store.members(classID: $0.id)) }
        func owners(_ members: [ClassMember]) -> [String] { members.filter { $0.role == .owner }.map(\.name) }
        func staff(_ members: [ClassMember]) -> Int { members.filter { $0.role != .student }.count }
        func students(_ members: [ClassMember]) -> Int { members.filter { $0.role == .student }.count }
        if parsed.flag("--json") {
            let rows: [JSONValue] = classes.map { record, members in
                .object([
                    ("handle", .string(record.handle)), ("name", .string(record.name)),
                    ("code", record.code.map(JSONValue.string) ?? .null), ("owners", .array(owners(members).map(JSONValue.string))),
                    ("staff", .int(Int64(staff(members)))), ("students", .int(Int64(students(members)))),
                    ("created_at", .string(AuditReport.time(record.createdAt))),
                    ("ended_at", record.hasEnded ? .string(AuditReport.time(record.endedAt)) : .null),
                ])
            }
            print(JSONValue.array(rows).toJSON())
            return 0
        }
        let rows = classes.map { record, members in
            [
                record.handle, record.name, owners(members).joined(separator: ", "), "\(staff(members))", "\(students(members))",
                record.code ?? "the server's", record.hasEnded ? "ended \(AuditReport.time(record.endedAt))" : "running",
            ]
        }
        print(PlainTable.render(header: ["HANDLE", "NAME", "OWNERS", "STAFF", "STUDENTS", "CODE", "TERM"], rows: rows))
        return 0
    }
}
