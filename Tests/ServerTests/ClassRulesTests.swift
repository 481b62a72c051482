import Testing
import Wire

@testable import Server

/// The rules on a class's handle, name and code, which the server applies.
@Suite("Class rules")
struct ClassRulesTests {
    @Test(
        "a handle is 2 to 32 of a-z, 0-9 and '-', not starting with '-'",
        arguments: [
            ("cs193p-f26", nil), ("a1", nil), (String(repeating: "x", count: 32), nil),
            ("x", "class handles are 2 to 32 characters"), (String(repeating: "x", count: 33), "class handles are 2 to 32 characters"),
            ("CS193P", "class handles use only lower-case letters, digits and '-'"),
            ("lab_1", "class handles use only lower-case letters, digits and '-'"),
            ("lab 1", "class handles use only lower-case letters, digits and '-'"),
            ("café", "class handles use only lower-case letters, digits and '-'"),
            ("-lab", "class handles start with a lower-case letter or digit"),
        ] as [(String, String?)])
    func handles(handle: String, problem: String?) {
        #expect(ClassRules.validateHandle(handle) == problem)
    }

    @Test("a name is trimmed, 1 to 100 characters, without control characters")
    func names() throws {
        #expect(try ClassRules.normalizedName("  CS193P Fall 2026 ").get() == "CS193P Fall 2026")
        #expect(throws: InputError.self) { try ClassRules.normalizedName("   ").get() }
        #expect(throws: InputError.self) { try ClassRules.normalizedName(String(repeating: "n", count: 101)).get() }
        #expect(throws: InputError.self) { try ClassRules.normalizedName("CS\u{7}193P").get() }
        #expect(try ClassRules.normalizedName(String(repeating: "é", count: 100)).get().count == 100)
    }

    @Test("a code is 4 to 64 characters without spaces or control characters; case counts")
    func codes() {
        #expect(ClassRules.validateCode("JOIN-F26") == nil && ClassRules.validateCode("k7pq-2mxa") == nil)
        #expect(ClassRules.validateCode("abc") == "class codes are 4 to 64 characters")
        #expect(ClassRules.validateCode(String(repeating: "c", count: 65)) == "class codes are 4 to 64 characters")
        #expect(ClassRules.validateCode("a b c d") == "class codes cannot contain spaces or control characters")
        #expect(ClassRules.validateCode("abcd\t") == "class codes cannot contain spaces or control characters")
    }
}
