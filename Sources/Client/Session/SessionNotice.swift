/// Something a session tells its user without failing.
public enum SessionNotice: Sendable, Equatable {
    /// The server's certificate was trusted on first use (no CA given) and pinned from now on.
    case trustedOnFirstUse(serverKey: String, fingerprintHex: String)
}
