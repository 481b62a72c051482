import Dispatch

extension TerminalSession {
    /// What `probe` learnt, and what arrived meanwhile that was not an answer.
    public struct Probe {
        public var facts: TerminalFacts
        /// Keys, clicks or pastes typed while waiting: the program's, to handle.
        public var events: [InputEvent]
        /// Signals caught while waiting: the program's, to respond to.
        public var signals: [Int32]
    }

    /// Asks the terminal what it is (`TerminalFacts.query`) and waits for the answers until the
    /// DA1 reply, which every terminal sends last, or `timeoutMilliseconds`. Call after
    /// `start()`, inside the alternate screen, so that a question some terminal prints instead of
    /// answering is wiped by the first frame.
    ///
    /// Not asked at all when this process is not the terminal's foreground (reading would stop
    /// it) or the environment says it is inside tmux or screen, which answer for themselves and
    /// turn a kitty query into the pane's title: then only the kitty query is left out.
    public func probe(environment: [String: String], timeoutMilliseconds: Int = 500) throws(Terminal.Failure) -> Probe {
        var result = Probe(facts: TerminalFacts(), events: [], signals: [])
        result.facts.window = Terminal.pixelSize(of: terminal.output)
        guard Terminal.isForeground(terminal.input) else { return result }
        try terminal.write(TerminalFacts.query(kitty: !Self.insideMultiplexer(environment)))
        var parser = InputParser()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while !result.facts.answered {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { break }
            let wakeup = try wait(timeoutMilliseconds: Int32((deadline - now) / 1_000_000 + 1), decodingWith: &parser)
            result.signals += wakeup.signals
            if wakeup.inputClosed { break }
            for event in wakeup.events {
                if case .unknown(let bytes) = event, result.facts.absorb(bytes) { continue }
                result.events.append(event)
            }
        }
        result.events += parser.flush()
        return result
    }

    /// Whether the environment says the program runs inside tmux or GNU screen.
    public static func insideMultiplexer(_ environment: [String: String]) -> Bool {
        let term = (environment["TERM"] ?? "").lowercased()
        return environment["TMUX"] != nil || environment["TERM_PROGRAM"] == "tmux" || environment["STY"] != nil
            || term.hasPrefix("screen") || term.hasPrefix("tmux")
    }
}
