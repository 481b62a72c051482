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

    /// `admin set-role USER ROLE [--class HANDLE]`: adds the account to the class with that role,
    /// or gives a member that role (the last owner cannot step down).
    static func setRole(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let username = parsed.positional(0) ?? ""
        let roleName = parsed.positional(1) ?? ""
        action.target = "user \(username) \(roleName)" + (parsed.string("--class").map { " in \($0)" } ?? "")
        guard let role = ClassRole(rawValue: roleName) else {
            throw parsed.usageError("the role is one of owner, instructor, ta, student (not '\(roleName)')")
        }
        let now = WallClock.system.now()
        let (record, name, added) = try OfflineAdmin.write(action, create: false) { store in
            let record = try store.offlineClass(parsed)
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            return (record, user.name, try store.setMember(userID: user.id, classID: record.id, role: role, at: now))
        }
        print(
            (added ? "\(name) is now in \(record.handle) as \(role.withArticle)" : "\(name) is now \(role.withArticle) in \(record.handle)")
                + "; a running server applies it within a second.")
        return 0
    }

    /// "this server has 2 classes (class, lab)": why an offline command will not guess.
    static func several(_ classes: [ClassRecord]) -> String {
        "this server has \(classes.count) classes (\(classes.map(\.handle).joined(separator: ", ")))"
    }

    /// `--class HANDLE`: which class an offline command acts in.
    static let classOption = OptionSpec(
        "--class", valueName: "HANDLE", help: "the class to act in (needed when the server has several; see admin classes)")
}

extension ClassStore {
    /// The class an offline command acts in: the one `--class` names, else the only class there
    /// is. A usage error names the classes when the handle names none, or when there are several
    /// and no handle.
    func offlineClass(_ parsed: ParsedCommand) throws -> ClassRecord {
        let handle = parsed.string("--class")
        if let handle {
            if let record = try classRecord(handle: handle) { return record }
            let handles = try allClasses().map(\.handle)
            throw parsed.usageError("there is no class \(handle) on this server (its classes: \(handles.joined(separator: ", ")))")
        }
        let classes = try allClasses()
        guard classes.count == 1, let only = classes.first else {
            throw parsed.usageError(
                classes.isEmpty
                    ? "this server has no class yet; make one with snapshare-server admin create-class"
                    : "\(ServerCommandLine.several(classes)); say which with --class HANDLE"
            )
        }
        return only
    }
}
