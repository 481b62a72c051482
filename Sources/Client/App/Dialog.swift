import TerminalUI

/// A question over the screen: a line to type (a report's reason, a password), yes and no, or
/// one of a list (a class to act in).
///
/// While it is open it owns every key: those its table names act, every other is dropped, and
/// none reaches the screen behind it (an Enter meant for an empty reason must not open the snap
/// under the dialog). Its keys are one `KeyTable`, which both the dispatch and the key line in its
/// box read. An answer goes to `submit`, which finishes it now or when the server has answered:
/// `.done` closes the dialog, `.refused` keeps it open with the reason inside, so what was typed
/// can be put right. While an answer is on its way the dialog says so and takes no other.
final class Dialog {
    /// How an answer ended.
    enum Outcome: Equatable {
        /// Taken: the dialog closes.
        case done
        /// Not taken, and why: said inside the dialog, which stays open.
        case refused(String)
    }

    /// Takes the answer (the text typed; empty for a yes) and reports through `finish`, at once
    /// or later, how it ended.
    typealias Submit = (_ answer: String, _ finish: @escaping (Outcome) -> Void) -> Void

    let title: String
    /// What it asks or says, above the field or the answers.
    let question: String?
    /// The line typed, for a prompt; nil for yes and no.
    private(set) var field: TextField?
    /// For a choice: each line shown and the answer it gives, and the one selected.
    private(set) var choices: [(line: String, answer: String)] = []
    private(set) var selected = 0
    /// Whether the box counts the characters typed against the field's limit.
    let countsCharacters: Bool
    /// Why the last answer was not taken.
    private(set) var refusal: String?
    /// An answer is on its way.
    private(set) var busy = false
    private(set) var isClosed = false
    /// The help's words for the key that answers (Enter, or y).
    private let answerHelp: String
    private let submit: Submit
    private let cancel: () -> Void
    /// Called once, when it closes: the app takes it off the screen.
    var onClose: (() -> Void)?

    /// One line to type: Enter answers with it, Esc calls `cancel`.
    init(
        prompt title: String, question: String? = nil, field: TextField, countsCharacters: Bool = false, answer: String,
        submit: @escaping Submit, cancel: @escaping () -> Void
    ) {
        self.title = title
        self.question = question
        self.field = field
        self.countsCharacters = countsCharacters
        answerHelp = answer
        self.submit = submit
        self.cancel = cancel
    }

    /// One of `choices`: ↑ ↓ (k j, Page Up and Down, Home, End) select, Enter answers with the
    /// selected one's answer, Esc calls `cancel`. `selected` starts the cursor.
    init(
        choose title: String, question: String? = nil, choices: [(line: String, answer: String)], selected: Int = 0, answer: String,
        submit: @escaping Submit, cancel: @escaping () -> Void
    ) {
        self.title = title
        self.question = question
        field = nil
        self.choices = choices
        self.selected = min(max(0, selected), max(0, choices.count - 1))
        countsCharacters = false
        answerHelp = answer
        self.submit = submit
        self.cancel = cancel
    }

    /// The most choices the box shows at once; the rest scroll into it.
    static let visibleChoices = 10

    /// Yes or no: y answers, n, Esc or Backspace call `no`.
    init(confirm question: String, title: String = "Are you sure?", yes: @escaping Submit, no: @escaping () -> Void) {
        self.title = title
        self.question = question
        field = nil
        countsCharacters = false
        answerHelp = "yes"
        submit = yes
        cancel = no
    }

    /// Its keys as they are now: none while an answer is on its way.
    var keys: KeyTable<Dialog> {
        if busy { return KeyTable([]) }
        if !choices.isEmpty { return chooseKeys }
        return field == nil ? confirmKeys : promptKeys
    }

    private var chooseKeys: KeyTable<Dialog> {
        let last = choices.count - 1
        let page = Self.visibleChoices
        return KeyTable([
            .init(
                "select",
                cases: [
                    .init([.key(.up), .character("k")]) { $0.selected = max(0, $0.selected - 1) },
                    .init([.key(.down), .character("j")]) { $0.selected = min(last, $0.selected + 1) },
                    .init([.key(.pageUp)]) { $0.selected = max(0, $0.selected - page) },
                    .init([.key(.pageDown)]) { $0.selected = min(last, $0.selected + page) },
                    .init([.key(.home)]) { $0.selected = 0 },
                    .init([.key(.end)]) { $0.selected = last },
                ]),
            .init([.key(.enter)], answerHelp) { $0.answer() },
            .init([.key(.escape)], "cancel") { $0.close(cancelled: true) },
        ])
    }

    private var promptKeys: KeyTable<Dialog> {
        KeyTable([
            .init([.key(.enter)], answerHelp) { $0.answer() },
            .init([.key(.escape)], "cancel") { $0.close(cancelled: true) },
            .init(
                [.typing], "type the answer (Ctrl-U clears)",
                event: { dialog, event in
                    guard dialog.field?.handle(event) == true else { return false }
                    dialog.refusal = nil
                    return true
                }),
        ])
    }

    private var confirmKeys: KeyTable<Dialog> {
        KeyTable([
            .init([.character("y"), .character("Y")], answerHelp) { $0.answer() },
            .init([.character("n"), .character("N"), .key(.escape), .key(.backspace)], "no") { $0.close(cancelled: true) },
        ])
    }

    private func answer() {
        busy = true
        refusal = nil
        let given = choices.isEmpty ? field?.text ?? "" : choices[selected].answer
        submit(given) { [weak self] outcome in
            guard let self, !isClosed else { return }
            busy = false
            switch outcome {
            case .done: close(cancelled: false)
            case .refused(let why): refusal = PrintableText.clean(why)
            }
        }
    }

    private func close(cancelled: Bool) {
        guard !isClosed else { return }
        isClosed = true
        onClose?()
        if cancelled { cancel() }
    }

    // MARK: Drawing

    /// The box's lines: the question, the field, the count, the refusal, then the keys that
    /// answer (from its table) or that the answer is on its way.
    func lines(errorStyle: Style) -> [DialogBox.Line] {
        var lines: [DialogBox.Line] = []
        if let question { lines.append(.text(question)) }
        if let field {
            if question != nil { lines.append(.text("")) }
            lines.append(.field(field))
            if countsCharacters {
                let count = "\(field.text.count) of \(field.limit) characters"
                lines.append(field.isFull ? .text(count + ": the most it takes", errorStyle) : .text(count, Style(bold: false)))
            }
        }
        if !choices.isEmpty {
            if question != nil { lines.append(.text("")) }
            // A window of the list around the one selected, saying how many more lie each way.
            let count = Self.visibleChoices
            let top = min(max(0, selected - count / 2), max(0, choices.count - count))
            let shown = top..<min(choices.count, top + count)
            lines.append(.text(top > 0 ? "  ▲ \(top) more" : ""))
            for index in shown {
                let marker = index == selected ? "› " : "  "
                lines.append(.text(marker + choices[index].line, index == selected ? Style(bold: true, reverse: true) : .plain))
            }
            let below = choices.count - shown.upperBound
            lines.append(.text(below > 0 ? "  ▼ \(below) more" : ""))
        }
        if let refusal { lines += [.text(""), .text(refusal, errorStyle)] }
        lines.append(.text(""))
        lines.append(.text(busy ? "Sending…" : keys.summary))
        return lines
    }
}
