import Posix

extension TerminalSession {
    /// Shows `frame` (the bytes of a whole screen `columns` x `rows` cells large, drawn with what
    /// `facts` says of the terminal) until a key, a click or a paste arrives, and returns its
    /// events (empty when the input closed). A resize or a suspend draws the frame again, with
    /// the window's pixels read again and, when `asking` (a picture drawn with the terminal's
    /// pixels), the cell size and sixel limit asked again (`askAgain`): their answers are taken
    /// in, never counted as a key, and draw the frame again when they change its size. SIGTERM,
    /// SIGHUP or SIGINT give the terminal back and end the process by that signal, so the parent
    /// sees the usual status. Call after `start()`.
    public func showUntilInput(
        facts: TerminalFacts, asking: Bool, _ frame: (_ columns: Int, _ rows: Int, _ facts: TerminalFacts) -> [UInt8]
    ) throws(Terminal.Failure) -> [InputEvent] {
        var facts = facts
        var parser = InputParser()
        try redraw { frame($0, $1, facts) }
        while true {
            let wakeup = try wait(timeoutMilliseconds: -1, decodingWith: &parser)
            let sizing = facts.pictureSizing
            let events = facts.absorb(answersIn: wakeup.events)
            if !events.isEmpty || wakeup.inputClosed { return events }
            var again = facts.pictureSizing != sizing
            for signal in wakeup.signals {
                switch try respond(to: signal) {
                case .redraw:
                    try askAgain(&facts, asking: asking)
                    again = true
                case .end:
                    close()
                    Signals.reraise(signal)
                }
            }
            if again { try redraw { frame($0, $1, facts) } }
        }
    }

    private func redraw(_ frame: (_ columns: Int, _ rows: Int) -> [UInt8]) throws(Terminal.Failure) {
        let size = Terminal.sizeOrDefault(of: terminal.output)
        try terminal.write(Array("\u{1B}[2J".utf8) + frame(size.columns, size.rows))
    }
}
