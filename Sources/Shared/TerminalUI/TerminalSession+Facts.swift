extension TerminalSession {
    /// What a resize (or the terminal taken back after a suspend) changes for pictures drawn with
    /// the terminal's own pixels: the window's pixel size is read again into `facts`, and, when
    /// `asking`, the questions whose answers may change with it (`TerminalFacts.resizeQuery`:
    /// the cell size, xterm's sixel limit) are asked again. Their answers arrive later as input,
    /// for `TerminalFacts.absorb(answersIn:)`; when `pictureSizing` then differs, the pictures
    /// are drawn again. The app, `view` and `post --camera` all keep their facts this way.
    public func askAgain(_ facts: inout TerminalFacts, asking: Bool) throws(Terminal.Failure) {
        if let pixels = Terminal.pixelSize(of: terminal.output) { facts.window = pixels }
        if asking { try terminal.write(TerminalFacts.resizeQuery) }
    }
}

extension TerminalFacts {
    /// Takes in the terminal's answers among `events` and returns the others (keys, clicks,
    /// pastes), so that a late answer is never taken for a key.
    public mutating func absorb(answersIn events: [InputEvent]) -> [InputEvent] {
        events.filter { event in
            if case .unknown(let bytes) = event, absorb(bytes) { return false }
            return true
        }
    }
}
