import Foundation
import Testing

/// "Posix: every system call" (docs/ARCHITECTURE.md), checked: no Swift source outside
/// Sources/Shared/Posix calls the C library's system calls itself (whether it reaches them through
/// Glibc or through Foundation, which re-exports Glibc), nor makes or changes files with
/// Foundation's writers, which would be a second way to create a file beside `StagedOutput`.
/// Everything else goes through Posix, where EINTR and short writes are handled once and every
/// file is created owner-only and atomically in one way.
///
/// Outside the Swift sources, C does some calls of its own: the TLS socket sink (COpenSSL's shim
/// sends on the connection's socket) and the codecs in CImageCodec read memory only. Reading a
/// file through Foundation (`FileManager.contents`, `fileExists`) is not a system call of ours
/// and is not listed.
///
/// The scan reads the code as text: comments and the text of string literals are passed over
/// (interpolations are code), and a name is a call of the C library's when nothing qualifies it
/// but `Glibc.` or `Foundation.`, its arguments carry no labels (C functions have none), and the
/// file does not declare a function, variable, case or closure parameter of that name (which
/// would be what the call means).
@Suite("System call placement")
struct SystemCallPlacementTests {
    /// The C library's system calls and the few wrappers around them (stdio files, `system`,
    /// sleeps, the password database) that only Posix may call.
    static let systemCalls: Set<String> = [
        // Files and folders.
        "open", "openat", "creat", "read", "pread", "write", "pwrite", "close", "fsync", "fdatasync", "lseek",
        "ftruncate", "truncate", "rename", "renameat", "unlink", "unlinkat", "mkdir", "mkdirat", "rmdir",
        "stat", "lstat", "fstat", "fstatat", "statfs", "statvfs", "fstatvfs", "chmod", "fchmod", "chown", "fchown",
        "lchown", "umask", "access", "faccessat", "realpath", "opendir", "readdir", "closedir", "scandir", "nftw",
        "symlink", "link", "readlink", "mknod", "mkfifo", "mkstemp", "mkdtemp", "tmpfile", "utime", "utimes",
        "futimens", "sync", "syncfs", "flock", "lockf", "chdir", "fchdir", "getcwd", "posix_fallocate",
        "fallocate", "sendfile", "splice", "copy_file_range", "fopen", "fdopen", "fclose", "fread", "fwrite",
        "fputs", "fflush", "fprintf", "flockfile", "funlockfile",
        // Descriptors, sockets, polling.
        "ioctl", "fcntl", "pipe", "pipe2", "dup", "dup2", "dup3", "poll", "select", "epoll_create1", "epoll_ctl",
        "epoll_wait", "eventfd", "timerfd_create", "signalfd", "memfd_create", "inotify_init1",
        "inotify_add_watch", "socket", "bind", "listen", "accept", "accept4", "connect", "send", "sendto",
        "sendmsg", "recv", "recvfrom", "recvmsg", "shutdown", "setsockopt", "getsockopt", "getsockname",
        "getpeername", "gethostname", "mmap", "munmap", "madvise", "mlock",
        // Terminals.
        "isatty", "tcgetattr", "tcsetattr", "tcgetpgrp", "tcsetpgrp", "getpgrp",
        // Processes, signals, threads, time.
        "kill", "raise", "signal", "sigaction", "sigprocmask", "pthread_sigmask", "pthread_create",
        "pthread_kill", "pthread_setname_np", "fork", "vfork", "execv", "execve", "execvp", "waitpid", "wait",
        "wait4", "waitid", "posix_spawn", "posix_spawnp", "system", "_exit", "getpid", "getppid", "getpgid",
        "setpgid", "setsid", "getsid", "getuid", "geteuid", "getgid", "getegid", "getpwuid", "getpwuid_r",
        "setenv", "unsetenv", "usleep", "sleep", "nanosleep", "clock_nanosleep", "clock_gettime",
        "gettimeofday", "alarm", "setitimer", "sched_yield", "getrusage", "getrlimit", "setrlimit", "sysconf",
        "sysinfo", "uname", "prctl", "getrandom", "mallopt", "malloc_trim",
    ]

    /// Of those, the ones called with no arguments: any other name called with none is a method of
    /// ours (a `close()`), not the C function.
    static let takingNoArguments: Set<String> = [
        "getpid", "getppid", "getpgrp", "getuid", "geteuid", "getgid", "getegid", "fork", "vfork", "sync", "setsid",
        "sched_yield",
    ]

    /// Foundation's ways to make or change files: a second writer beside `StagedOutput`.
    static let foundationWriters: Set<String> = [
        "createFile", "createDirectory", "setAttributes", "copyItem", "moveItem", "removeItem", "replaceItem",
        "replaceItemAt", "createSymbolicLink", "linkItem", "changeCurrentDirectoryPath",
    ]

    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// One call that should go through Posix: where it is and what it calls.
    struct Violation: CustomStringConvertible, Equatable {
        var line: Int
        var call: String
        var description: String { "line \(line): \(call)" }
    }

    // MARK: The tests

    @Test("no source outside Posix calls the C library's system calls or writes files with Foundation")
    func systemCallsGoThroughPosix() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let posix = sources.appendingPathComponent("Shared/Posix").path + "/"
        let files =
            FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.hasPrefix(posix) } ?? []
        #expect(files.count > 100, "the sources were not found under \(sources.path)")
        var found: [String] = []
        for file in files {
            let relative = String(file.path.dropFirst(Self.root.path.count + 1))
            for violation in Self.violations(in: try String(contentsOf: file, encoding: .utf8)) {
                found.append("\(relative):\(violation.line): \(violation.call)")
            }
        }
        let list = found.sorted().joined(separator: "\n")
        #expect(found.isEmpty, "call these through Posix (Syscall, FileSystem, StagedOutput, ThisProcess, ...):\n\(list)")
    }

    @Test("the scan finds a direct call however it is written, and passes over comments, strings and our own methods")
    func scanFindsWhatItShould() {
        let source = #"""
            import Glibc
            /// Calls open(2) in a comment: not code.
            struct Sample {
                var open: Bool = false
                func run(fd: Int32) {
                    let text = "write(1, x, 2) in a string"
                    _ = Glibc.open("/tmp/x", O_RDONLY)
                    _ = unlink ("/tmp/x")
                    let label = "pid \(getpid())"
                    _ = fsync(
                        fd)
                    usleep(1000) // and a trailing comment: close(fd)
                    close()
                    send(frame, to: peer)
                    items.remove(at: 0)
                    try FileManager.default.createFile(atPath: "/tmp/y", contents: nil)
                    try Data().write(to: url)
                    element.write(to: &output)
                    let handle = FileHandle(forWritingAtPath: "/tmp/z")
                    _ = #"stat("/x", &s)"#
                }
                func close() {}
            }
            """#
        let found = Self.violations(in: source)
        #expect(
            found.map(\.description) == [
                "line 7: open", "line 8: unlink", "line 9: getpid", "line 10: fsync", "line 12: usleep",
                "line 16: FileManager.default.createFile", "line 17: .write(to:)", "line 19: FileHandle(forWritingAtPath:)",
            ])
    }

    // MARK: The scan

    /// The calls in `source` that should go through Posix.
    static func violations(in source: String) -> [Violation] {
        let code = Self.code(of: Array(source.utf8))
        let declared = Self.declaredNames(in: code)
        var lineStarts = [0]
        for (index, byte) in code.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(index + 1) }
        func line(of index: Int) -> Int { lineStarts.lastIndex { $0 <= index }! + 1 }

        var violations: [Violation] = []
        var index = 0
        while index < code.count {
            guard Self.startsIdentifier(code[index]), index == 0 || !Self.isIdentifier(code[index - 1]) else {
                index += 1
                continue
            }
            var end = index
            while end < code.count && Self.isIdentifier(code[end]) { end += 1 }
            let name = String(decoding: code[index..<end], as: UTF8.self)
            defer { index = end }
            let before = Self.textBefore(code, index)
            let open = Self.skippingSpaces(code, end)
            guard open < code.count, code[open] == UInt8(ascii: "(") else { continue }
            let arguments = Self.topLevelArguments(code, after: open)

            let qualified = before.hasSuffix("Glibc.") || before.hasSuffix("Foundation.")
            let member = before.hasSuffix(".") && !qualified
            if Self.systemCalls.contains(name) && !member {
                // Unqualified: a declaration, or our own function of that name, is not the C one.
                if !qualified {
                    if before.hasSuffix("func ") || declared.contains(name) || arguments.hasLabel { continue }
                    if arguments.isEmpty && !Self.takingNoArguments.contains(name) { continue }
                }
                violations.append(Violation(line: line(of: index), call: name))
            } else if Self.foundationWriters.contains(name), before.hasSuffix("FileManager.default.") {
                violations.append(Violation(line: line(of: index), call: "FileManager.default." + name))
            } else if name == "FileHandle", let first = arguments.firstLabel,
                first.hasPrefix("forWriting") || first.hasPrefix("forUpdating")
            {
                violations.append(Violation(line: line(of: index), call: "FileHandle(\(first):)"))
            } else if name == "write", member, let first = arguments.firstLabel, first == "to" || first == "toFile",
                !arguments.firstValueIsInOut
            {
                // Data's and String's writers (`Data(…).write(to: url)`), not a stream's `write(to: &output)`.
                violations.append(Violation(line: line(of: index), call: ".write(\(first):)"))
            }
        }
        return violations
    }

    /// What an argument list holds at its top level.
    struct Arguments {
        var isEmpty: Bool
        var hasLabel: Bool
        var firstLabel: String?
        var firstValueIsInOut: Bool
    }

    /// The arguments of the call whose `(` is at `open`, read at their top level only (closures,
    /// nested calls and subscripts inside are passed over).
    static func topLevelArguments(_ code: [UInt8], after open: Int) -> Arguments {
        var depth = 0
        var top: [UInt8] = []
        var index = open + 1
        while index < code.count {
            let byte = code[index]
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: ")") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0 {
                top.append(byte)
            }
            if depth > 0 && top.last != UInt8(ascii: "_") { top.append(UInt8(ascii: "_")) }
            index += 1
        }
        let text = String(decoding: top, as: UTF8.self)
        let pieces = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        func label(_ piece: String) -> String? {
            guard let colon = piece.firstIndex(of: ":") else { return nil }
            let name = piece[..<colon]
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isIdentifier) else { return nil }
            guard piece[piece.index(after: colon)...].first != ":" else { return nil }
            return String(name)
        }
        let first = pieces.first.flatMap(label)
        let firstValue = pieces.first.map { piece in piece.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces) } ?? ""
        return Arguments(
            isEmpty: text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            hasLabel: pieces.contains { label($0) != nil }, firstLabel: first, firstValueIsInOut: firstValue.hasPrefix("&"))
    }

    /// The names the source declares itself: functions, variables, constants, cases, and
    /// closure parameters (`open: @escaping (…) -> Void`), which a bare call of that name means.
    static func declaredNames(in code: [UInt8]) -> Set<String> {
        let words = String(decoding: code, as: UTF8.self)
            .split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" || $0 == "@" || $0 == "(") })
        var names: Set<String> = []
        for (index, word) in words.enumerated().dropLast() {
            let next = String(words[index + 1])
            if ["func", "var", "let", "case"].contains(word) {
                names.insert(String(next.prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
            }
            if word.hasSuffix(":"), next.hasPrefix("@escaping") || next.hasPrefix("@Sendable") || next.hasPrefix("(") {
                names.insert(String(word.dropLast()))
            }
        }
        return names
    }

    /// `source` with every comment and the text of every string literal made spaces (line breaks
    /// kept, so lines count as in the file; a literal keeps one quote at each end); interpolations
    /// stay code.
    static func code(of source: [UInt8]) -> [UInt8] {
        enum Context {
            /// A string literal: `"…"` or `"""…"""`, with `hashes` #s around it when raw.
            case string(multiline: Bool, hashes: Int)
            /// `\(…)` inside a string: code until its parentheses close.
            case interpolation(depth: Int)
        }
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let hash = UInt8(ascii: "#")
        let slash = UInt8(ascii: "/")
        let newline = UInt8(ascii: "\n")
        let space = UInt8(ascii: " ")
        let star = UInt8(ascii: "*")
        var output = source
        var stack: [Context] = []
        var index = 0
        func blank(_ range: Range<Int>) {
            for at in range where at < output.count && output[at] != newline { output[at] = space }
        }
        func matches(_ text: [UInt8], at position: Int) -> Bool {
            position + text.count <= source.count && Array(source[position..<position + text.count]) == text
        }
        while index < source.count {
            let byte = source[index]
            if case .string(let multiline, let hashes)? = stack.last {
                let closing = (multiline ? [quote, quote, quote] : [quote]) + Array(repeating: hash, count: hashes)
                if matches(closing, at: index) {
                    stack.removeLast()
                    // One quote stays, so a call whose argument is a string still has one.
                    blank(index + 1..<index + closing.count)
                    index += closing.count
                } else if byte == backslash, matches([backslash] + Array(repeating: hash, count: hashes) + [UInt8(ascii: "(")], at: index) {
                    blank(index..<index + hashes + 2)
                    index += hashes + 2
                    stack.append(.interpolation(depth: 0))
                } else if byte == backslash && hashes == 0 {
                    blank(index..<index + 2)
                    index += 2
                } else {
                    blank(index..<index + 1)
                    index += 1
                }
                continue
            }
            if matches([slash, slash], at: index) {
                var end = index
                while end < source.count && source[end] != newline { end += 1 }
                blank(index..<end)
                index = end
            } else if matches([slash, star], at: index) {
                var depth = 0
                var end = index
                repeat {
                    if matches([slash, star], at: end) {
                        depth += 1
                        end += 2
                    } else if matches([star, slash], at: end) {
                        depth -= 1
                        end += 2
                    } else {
                        end += 1
                    }
                } while depth > 0 && end < source.count
                blank(index..<end)
                index = end
            } else if byte == hash || byte == quote {
                var hashes = 0
                while index + hashes < source.count && source[index + hashes] == hash { hashes += 1 }
                let start = index + hashes
                guard start < source.count, source[start] == quote else {
                    index += max(hashes, 1)
                    continue
                }
                let multiline = matches([quote, quote, quote], at: start)
                let opening = hashes + (multiline ? 3 : 1)
                blank(index..<index + opening - 1)
                index += opening
                stack.append(.string(multiline: multiline, hashes: hashes))
            } else if case .interpolation(let depth)? = stack.last, byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") {
                stack.removeLast()
                if byte == UInt8(ascii: "(") {
                    stack.append(.interpolation(depth: depth + 1))
                } else if depth > 0 {
                    stack.append(.interpolation(depth: depth - 1))
                } else {
                    blank(index..<index + 1)
                }
                index += 1
            } else {
                index += 1
            }
        }
        return output
    }

    // MARK: Pieces

    static func isIdentifier(_ byte: UInt8) -> Bool { startsIdentifier(byte) || (byte >= 0x30 && byte <= 0x39) }

    static func startsIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
    }

    /// Up to 24 characters of code before `index` on its line, spaces between a word and what
    /// follows it kept as one.
    static func textBefore(_ code: [UInt8], _ index: Int) -> String {
        var start = index
        while start > 0 && index - start < 24 && code[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        return String(decoding: code[start..<index], as: UTF8.self)
    }

    static func skippingSpaces(_ code: [UInt8], _ index: Int) -> Int {
        var index = index
        while index < code.count && (code[index] == UInt8(ascii: " ") || code[index] == UInt8(ascii: "\t")) { index += 1 }
        return index
    }
}
