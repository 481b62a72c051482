import TerminalUI

/// A screen's keys, declared once: each entry names its keys, says what they do (a line of the
/// `?` help) and holds the action (the dispatch), so the help lists exactly the keys the screen
/// answers to. A table is a value over the thing its actions change (`Target`: a screen, the
/// app, a list cursor), declared as a `static let`, or as a computed property where the keys
/// change with the screen's mode.
struct KeyTable<Target>: Sendable {
    /// Some keys and what they do to the target: true when it took the event, false to let it
    /// go on to the entries after it (Esc with nothing to go back to).
    typealias Action = @Sendable (inout Target, InputEvent) -> Bool

    /// Keys with one action.
    struct Case: Sendable {
        let triggers: [KeyTrigger]
        let run: Action

        /// `triggers` run `action`, which always takes the event.
        init(_ triggers: [KeyTrigger], _ action: @escaping @Sendable (inout Target) -> Void) {
            self.triggers = triggers
            run = { target, _ in
                action(&target)
                return true
            }
        }

        /// `triggers` run `action`, which sees the event and may decline it.
        init(_ triggers: [KeyTrigger], event action: @escaping Action) {
            self.triggers = triggers
            run = action
        }
    }

    /// One entry, one line of the help: usually one case; "pan" has one per direction.
    struct Binding: Sendable {
        let cases: [Case]
        /// What the keys do, in the help's words.
        let help: String

        /// `triggers` do `help` by running `action`, which always takes the event.
        init(_ triggers: [KeyTrigger], _ help: String, _ action: @escaping @Sendable (inout Target) -> Void) {
            self.init(help, cases: [Case(triggers, action)])
        }

        /// `triggers` do `help` by running `action`, which sees the event and may decline it.
        init(_ triggers: [KeyTrigger], _ help: String, event action: @escaping Action) {
            self.init(help, cases: [Case(triggers, event: action)])
        }

        /// Several keys with their own actions under one line of help.
        init(_ help: String, cases: [Case]) {
            self.cases = cases
            self.help = help
        }

        /// The keys as the help names them: named keys, then characters, then the mouse, each once.
        var keys: String {
            var names: [String] = []
            for trigger in cases.flatMap(\.triggers).enumerated().sorted(by: {
                ($0.element.order, $0.offset) < ($1.element.order, $1.offset)
            }) {
                if !names.contains(trigger.element.name) { names.append(trigger.element.name) }
            }
            return names.joined(separator: " ")
        }
    }

    let bindings: [Binding]

    init(_ bindings: [Binding]) { self.bindings = bindings }

    /// Runs, in the table's order, the actions `event` sets off until one takes it; false when
    /// none does. `typing`: a field takes the typing, so characters alone set nothing off.
    func handle(_ event: InputEvent, on target: inout Target, typing: Bool = false) -> Bool {
        for binding in bindings {
            for entry in binding.cases where entry.triggers.contains(where: { $0.matches(event, typing: typing) }) {
                if entry.run(&target, event) { return true }
            }
        }
        return false
    }

    /// The help's lines: each entry's keys and what they do. "Any key" after other entries is
    /// "any other key": those entries take theirs first.
    var help: [(keys: String, meaning: String)] {
        bindings.enumerated().map { index, binding in
            let keys = binding.keys
            return (index > 0 && keys == KeyTrigger.anyKey.name ? "any other key" : keys, binding.help)
        }
    }

    /// The help on one line, as a box's last line or a picture's caption says it ("Enter send
    /// the report · Esc cancel"); the typing a field takes is left out, the field shows it.
    var summary: String {
        zip(bindings, help).filter { binding, _ in !binding.cases.contains { $0.triggers == [.typing] } }
            .map { "\($1.keys) \($1.meaning)" }.joined(separator: " · ")
    }

    /// This table's entries for an outer target that holds this one: `inner` finds it (nil when
    /// it has none now, and the keys do nothing).
    func lifted<Outer>(_ inner: @escaping @Sendable (Outer) -> Target?) -> [KeyTable<Outer>.Binding] where Target: AnyObject {
        bindings.map { binding in
            KeyTable<Outer>.Binding(
                binding.help,
                cases: binding.cases.map { entry in
                    KeyTable<Outer>.Case(
                        entry.triggers,
                        event: { outer, event in
                            guard var target = inner(outer) else { return false }
                            return entry.run(&target, event)
                        })
                })
        }
    }
}
