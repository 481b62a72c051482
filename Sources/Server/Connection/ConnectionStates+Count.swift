extension ConnectionStates {
    /// Counts `connections` (on the loop thread, which owns them).
    init(_ connections: some Sequence<Connection>) {
        self.init()
        for connection in connections where !connection.isClosed {
            if connection.state.phase == .handshaking {
                handshaking += 1
            } else if connection.user == nil {
                anonymous += 1
            } else {
                loggedIn += 1
            }
        }
    }
}
