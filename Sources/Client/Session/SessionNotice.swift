/// Something a session tells its user without failing.
package enum SessionNotice: Sendable, Equatable {
    /// A server the system does not vouch for was trusted on first use (no CA given): the
    /// fingerprint of its chain's certificate authority (or of its lone certificate, when
    /// `isAuthority` is false) is pinned from now on.
    case trustedOnFirstUse(serverKey: String, fingerprintHex: String, isAuthority: Bool)
}
