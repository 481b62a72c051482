import CommandLineParsing
import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// The question an offline command asks before it deletes a class's data: `--yes` answers it in
/// scripts; without a terminal and without `--yes`, nothing is done.
enum Confirmation {
    /// The question was answered no: nothing was done (exit 2, as a usage error; the audit log
    /// says `cancelled`).
    struct Declined: Error, CustomStringConvertible {
        var description: String { "nothing was changed" }
    }

    static func ask(_ question: String, _ parsed: ParsedCommand) throws {
        if parsed.flag("--yes") { return }
        guard TerminalDevice.isTerminal(0) else {
            throw parsed.usageError("\(question) There is no terminal to ask on; add --yes to go ahead")
        }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        let answer = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else { throw Declined() }
    }
}
