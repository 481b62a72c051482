import Foundation
import Testing

/// The thread table of docs/ARCHITECTURE.md, checked against the sources: every thread a program
/// starts goes through `NamedThread.start`, and the names it is given, followed back to where they
/// are written, are the table's rows, each in the file the row says. The tests' own helpers
/// (`Sources/TestSupport`) are left out on both sides.
@Suite("Thread list")
struct ThreadListTests {
    /// A thread's name (`N` for a number given at run time) and the file under Sources where the
    /// name is written.
    struct NamedIn: Hashable, CustomStringConvertible {
        var name: String
        var file: String
        var description: String { "\(name) (\(file))" }
    }

    /// Why the sources could not be read for a thread's name.
    struct Unreadable: Error, CustomStringConvertible {
        var description: String
    }

    /// The programs' Swift files, comments left out, by their path under Sources.
    static func programSources() throws -> [(path: String, code: String)] {
        try RepositoryText.swiftFiles(under: "Sources").map {
            (String($0.path.dropFirst("Sources/".count)), RepositoryText.withoutComments($0.text))
        }
        .filter { !$0.path.hasPrefix("TestSupport/") }
    }

    // MARK: The sources' side

    /// Every thread the programs start, by name.
    static func started() throws -> Set<NamedIn> {
        let sources = try programSources()
        var found: Set<NamedIn> = []
        for (path, code) in sources where path != "Shared/Posix/NamedThread.swift" {
            for call in code.ranges(of: "NamedThread.start(") {
                let open = code.index(before: call.upperBound)
                guard let list = RepositoryText.balanced(code, from: open), let first = RepositoryText.arguments(list).first else {
                    throw Unreadable(description: "\(path): a NamedThread.start whose arguments cannot be read")
                }
                found.formUnion(try names(of: first, at: call.lowerBound, in: path, sources: sources))
            }
        }
        return found
    }

    /// The names an expression gives a thread: a string literal (its interpolations of a name
    /// handed in followed back, the others numbers), or a name handed in.
    static func names(
        of expression: Substring, at position: String.Index, in path: String,
        sources: [(path: String, code: String)]
    ) throws -> Set<NamedIn> {
        if expression.hasPrefix("\"") {
            var results: Set<NamedIn> = [NamedIn(name: "", file: path)]
            var rest = expression.dropFirst().dropLast()
            while !rest.isEmpty {
                if rest.hasPrefix("\\("), let close = rest.firstIndex(of: ")") {
                    let inner = rest[rest.index(rest.startIndex, offsetBy: 2)..<close]
                    let handedIn =
                        inner.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
                        ? try? resolve(inner, at: position, in: path, sources: sources) : nil
                    results = Set(
                        results.flatMap { partial in
                            (handedIn ?? [NamedIn(name: "N", file: partial.file)]).map {
                                NamedIn(name: partial.name + $0.name, file: handedIn == nil ? partial.file : $0.file)
                            }
                        })
                    rest = rest[rest.index(after: close)...]
                } else {
                    let character = rest.removeFirst()
                    results = Set(results.map { NamedIn(name: $0.name + String(character), file: $0.file) })
                }
            }
            return results
        }
        guard expression.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw Unreadable(description: "\(path): a thread named by `\(expression)`, which this test cannot follow")
        }
        return try resolve(expression, at: position, in: path, sources: sources)
    }

    /// The names a parameter `name` is given: the literals the callers of its function (or
    /// initializer) pass for it, and its default.
    static func resolve(
        _ name: Substring, at position: String.Index, in path: String,
        sources: [(path: String, code: String)]
    ) throws -> Set<NamedIn> {
        let code = try #require(sources.first { $0.path == path }?.code)
        let declarations = code.matches(of: /(?:func\s+(\w+)|\binit)\s*(?:<[^>]*>)?\(/)
        // The declaration around the call first, else any in the file that takes `name` (a stored
        // property set by the initializer).
        let ordered = Array(declarations.filter { $0.range.lowerBound < position }.reversed()) + declarations
        for declaration in ordered {
            let open = code.index(before: declaration.range.upperBound)
            guard let parameters = RepositoryText.balanced(code, from: open) else { continue }
            for parameter in RepositoryText.arguments(parameters) {
                guard let match = parameter.wholeMatch(of: /(?:(\w+)\s+)?(\w+)\s*:\s*String\??(?:\s*=\s*"([^"]*)")?/),
                    match.2 == name
                else { continue }
                let label = String(match.1 ?? match.2)
                let callee: String
                if let function = declaration.1 {
                    callee = String(function)
                } else {
                    callee = try #require(
                        enclosingType(of: declaration.range.lowerBound, in: code), "\(path): an initializer outside a type")
                }
                var names: Set<NamedIn> = []
                if let fallback = match.3 { names.insert(NamedIn(name: String(fallback), file: path)) }
                names.formUnion(try passed(label, to: callee, sources: sources))
                guard !names.isEmpty else {
                    throw Unreadable(description: "\(path): nobody passes \(callee)(\(label):) a name")
                }
                return names
            }
        }
        throw Unreadable(description: "\(path): `\(name)` names a thread, and no function in the file takes it")
    }

    /// The innermost type whose body holds `position`.
    static func enclosingType(of position: String.Index, in code: String) -> String? {
        var innermost: (name: String, start: String.Index)?
        for type in code[..<position].matches(of: /\b(?:class|struct|enum|actor|extension)\s+(\w+)[^{]*\{/) {
            let open = code.index(before: type.range.upperBound)
            guard let body = RepositoryText.balanced(code, from: open), body.endIndex > position else { continue }
            if innermost.map({ $0.start < open }) ?? true { innermost = (String(type.1), open) }
        }
        return innermost?.name
    }

    /// The string literals every call of `callee` passes as its argument `label`, as names.
    static func passed(_ label: String, to callee: String, sources: [(path: String, code: String)]) throws -> Set<NamedIn> {
        var names: Set<NamedIn> = []
        for (path, code) in sources {
            for call in code.ranges(of: callee + "(") {
                // A call of this name, on any receiver (`queue.start(thread:`: only arguments with
                // the label count), not a longer name ending in it nor the declaration.
                let before = code[..<call.lowerBound]
                let longerName = before.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
                guard !longerName, !before.hasSuffix("func ") else { continue }
                let open = code.index(before: call.upperBound)
                guard let list = RepositoryText.balanced(code, from: open) else { continue }
                for argument in RepositoryText.arguments(list) where argument.hasPrefix(label + ":") {
                    let literals = argument.matches(of: /"((?:[^"\\]|\\.)*)"/)
                    guard !literals.isEmpty else {
                        throw Unreadable(description: "\(path): \(callee)(\(argument)) names a thread without a literal")
                    }
                    for literal in literals {
                        let name = String(literal.1).replacing(/\\\([^)]*\)/, with: "N")
                        names.insert(NamedIn(name: name, file: path))
                    }
                }
            }
        }
        return names
    }

    // MARK: The document's side

    static func threadSection() throws -> Substring {
        try #require(RepositoryText.section("## Threads and what they own", of: try RepositoryText.read("docs/ARCHITECTURE.md")))
    }

    /// The table's rows whose first cell is a thread's name.
    static func documented() throws -> Set<NamedIn> {
        var rows: Set<NamedIn> = []
        for line in RepositoryText.linesOutsideCode(try threadSection()) {
            guard let cells = RepositoryText.cells(line), cells.count >= 4,
                let name = cells[0].wholeMatch(of: /`([a-zA-Z0-9-]+)`/)?.1,
                let file = cells[2].wholeMatch(of: /`([^`]+)`/)?.1
            else { continue }
            rows.insert(NamedIn(name: String(name), file: String(file)))
        }
        return rows
    }

    // MARK: Tests

    @Test(
        """
        every thread the programs start has its row in ARCHITECTURE.md's thread table, \
        named in the file the row says, and every row is one they start
        """
    )
    func tableMatchesTheSources() throws {
        let started = try Self.started()
        let documented = try Self.documented()
        #expect(started.count > 10, "the threads found: \(started.sorted { $0.name < $1.name })")
        #expect(
            started == documented,
            """
            started but not in the table: \(started.subtracting(documented).map(\.description).sorted()); \
            in the table but not started: \(documented.subtracting(started).map(\.description).sorted())
            """
        )
    }

    @Test("no program starts a thread except through NamedThread.start")
    func everyThreadIsNamed() throws {
        var others: [String] = []
        for file in try Self.programSources() where file.path != "Shared/Posix/NamedThread.swift" {
            if file.code.contains(/\bThread\s*[({]|\bThread\.init\b|detachNewThread|pthread_create/.wordBoundaryKind(.simple)) {
                others.append(file.path)
            }
        }
        #expect(others.isEmpty, "these start threads another way: \(others)")
    }

    @Test("work goes to Dispatch's queues only in the files the thread table's Dispatch row names")
    func dispatchQueuesAreWhereTheTableSays() throws {
        let row = try #require(
            RepositoryText.linesOutsideCode(try Self.threadSection()).compactMap(RepositoryText.cells)
                .first { $0.first?.hasPrefix("Dispatch") == true }, "the table has a row for Dispatch's threads")
        let named = Set(row[2].matches(of: /`([^`]+)`/).map { String($0.1) })
        let using = Set(
            try Self.programSources().filter {
                // Simple word boundaries: Unicode's would join `DispatchQueue.concurrentPerform` into one word.
                $0.code.contains(/\b(DispatchQueue|DispatchSource|DispatchWorkItem|OperationQueue|URLSession)\b/.wordBoundaryKind(.simple))
            }.map(\.path))
        #expect(!using.isEmpty && using == named, "the sources: \(using.sorted()); the table: \(named.sorted())")
    }
}
