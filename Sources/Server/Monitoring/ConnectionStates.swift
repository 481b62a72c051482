/// The event loop's connections counted by state, for `GET /metrics`.
struct ConnectionStates: Sendable, Equatable {
    /// In their TLS handshake.
    var handshaking = 0
    /// Past the handshake, not logged in.
    var anonymous = 0
    var loggedIn = 0

    /// Counts `connections` (on the loop thread, which owns them).
    init(_ connections: some Sequence<Connection>) {
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
