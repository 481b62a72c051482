/// The outcome of comparing a server's certificate with the one trusted before (trust on first use).
package enum FingerprintCheck: Sendable, Equatable {
    /// The server was unknown; its fingerprint is now stored and trusted.
    case trustedOnFirstUse
    /// The fingerprint is the one already trusted.
    case matches
    /// The server presents a different certificate than before; nothing was changed.
    /// The caller should refuse to connect unless the user explicitly re-trusts it.
    case changed(trusted: String)
}
