import Foundation
import TestSupport
import Testing

/// One row of `admin classes --json`.
struct ClassRow: Decodable, Equatable {
    var handle: String
    var name: String
    var code: String?
    var owners: [String]
    var staff: Int
    var students: Int
    var createdAt: String
    var endedAt: String?
}

/// A department's classes made offline: `snapshare-server admin create-class` and `admin classes`,
/// on the server's own data (both engines).
@Suite("Class commands")
struct ClassCommandTests {
    @Test("create-class makes a class with its owner and prints its code (made when none is given); classes lists each")
    func createAndList() throws {
        let server = try TestServer()
        _ = try server.registeredSession("prof")
        _ = try server.registeredSession("coprof")
        func run(_ arguments: [String]) throws -> Subprocess.Result {
            try Subprocess.run("snapshare-server", ["admin"] + arguments + server.storeArguments)
        }
        let given = try run(["create-class", "cs193p-f26", "--name", "  CS193P Fall 2026 ", "--owner", "PROF", "--code", "JOIN-F26"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("Made the class cs193p-f26 (CS193P Fall 2026), owned by prof"))
        #expect(given.stdout.contains("class code: JOIN-F26"))

        let made = try run(["create-class", "lab-2", "--name", "Lab", "--owner", "coprof"])
        #expect(made.status == 0, "\(made.stderr)")
        let code = try #require(made.stdout.firstMatch(of: /class code: ([a-z2-9]{4}-[a-z2-9]{4})\n/)).output.1
        #expect(!code.contains(where: { "01ilo".contains($0) }), "no look-alikes")

        let table = try run(["classes"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 4 && lines[0].hasPrefix("HANDLE"))
        #expect(lines[1].hasPrefix("class ") && lines[1].contains("the server's") && lines[1].contains("running"))
        #expect(lines[2].hasPrefix("cs193p-f26") && lines[2].contains("prof") && lines[2].contains("JOIN-F26"))

        let json = try run(["classes", "--json"])
        let rows = try JSONDecoder.snakeCase.decode([ClassRow].self, from: Data(json.stdout.utf8))
        #expect(rows.map(\.handle) == ["class", "cs193p-f26", "lab-2"])
        #expect(rows[1].owners == ["prof"] && rows[1].staff == 1 && rows[1].students == 0 && rows[1].name == "CS193P Fall 2026")
        #expect(rows[2].code == String(code) && rows[0].code == nil && rows[0].endedAt == nil)
    }

    @Test("a bad handle, name, code or owner, or a handle or code taken, is refused with its reason and nothing made")
    func refusals() throws {
        let server = try TestServer()
        _ = try server.registeredSession("prof")
        func run(_ arguments: [String]) throws -> Subprocess.Result {
            try Subprocess.run("snapshare-server", ["admin", "create-class"] + arguments + server.storeArguments)
        }
        let cases: [([String], Int32, String)] = [
            (["CS193P", "--name", "X", "--owner", "prof"], 2, "class handles use only lower-case letters, digits and '-'"),
            (["lab_1", "--name", "X", "--owner", "prof"], 2, "class handles use only lower-case letters, digits and '-'"),
            (["x", "--name", "X", "--owner", "prof"], 2, "class handles are 2 to 32 characters"),
            (["lab", "--owner", "prof"], 2, "--name gives the class its name"),
            (["lab", "--name", "   ", "--owner", "prof"], 2, "a class name cannot be empty"),
            (["lab", "--name", "Lab"], 2, "--owner names the account that has the class"),
            (["lab", "--name", "Lab", "--owner", "prof", "--code", "abc"], 2, "class codes are 4 to 64 characters"),
            (["lab", "--name", "Lab", "--owner", "prof", "--code", "a b c d"], 2, "class codes cannot contain spaces"),
            (["lab", "--name", "Lab", "--owner", "nobody"], 1, "no user named nobody"),
            (["class", "--name", "Lab", "--owner", "prof"], 1, "the class handle class is taken"),
        ]
        for (arguments, status, words) in cases {
            let result = try run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        #expect(try run(["lab", "--name", "Lab", "--owner", "prof", "--code", "SAME-CODE"]).status == 0)
        let sameCode = try run(["lab2", "--name", "Lab", "--owner", "prof", "--code", "SAME-CODE"])
        #expect(sameCode.status == 1 && sameCode.stderr.contains("that class code is another class's"), "\(sameCode.stderr)")
        let listed = try Subprocess.run("snapshare-server", ["admin", "classes", "--json"] + server.storeArguments)
        #expect(try JSONDecoder.snakeCase.decode([ClassRow].self, from: Data(listed.stdout.utf8)).map(\.handle) == ["class", "lab"])
    }
}
