/// The event loop's connections counted by state, for `GET /metrics`.
struct ConnectionStates: Sendable, Equatable {
    /// In their TLS handshake.
    var handshaking = 0
    /// Past the handshake, not logged in.
    var anonymous = 0
    var loggedIn = 0
}
