import Posix

extension TerminalSession {
    /// Shows `frame` (the bytes of a whole screen `columns` x `rows` cells large) until a key, a
    /// click or a paste arrives, and returns its events (empty when the input closed). A resize
    /// or a suspend draws the frame again; SIGTERM, SIGHUP or SIGINT give the terminal back and
    /// end the process by that signal, so the parent sees the usual status. Call after `start()`.
    public func showUntilInput(_ frame: (_ columns: Int, _ rows: Int) -> [UInt8]) throws(Terminal.Failure) -> [InputEvent] {
        var parser = InputParser()
        try redraw(frame)
        while true {
            let wakeup = try wait(timeoutMilliseconds: -1, decodingWith: &parser)
            if !wakeup.events.isEmpty || wakeup.inputClosed { return wakeup.events }
            for signal in wakeup.signals {
                switch try respond(to: signal) {
                case .redraw:
                    try redraw(frame)
                case .end:
                    close()
                    Signals.reraise(signal)
                }
            }
        }
    }

    private func redraw(_ frame: (_ columns: Int, _ rows: Int) -> [UInt8]) throws(Terminal.Failure) {
        let size = Terminal.sizeOrDefault(of: terminal.output)
        try terminal.write(Array("\u{1B}[2J".utf8) + frame(size.columns, size.rows))
    }
}
