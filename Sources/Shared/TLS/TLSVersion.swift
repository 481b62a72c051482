import COpenSSL

/// A TLS protocol version a context may be pinned to. Snapshare speaks TLS 1.3 only; 1.2 exists so tests can
/// prove that an older peer is refused.
public enum TLSVersion: Sendable, Equatable {
    case tls12
    case tls13

    /// The wire value OpenSSL uses for this version (TLS1_2_VERSION, TLS1_3_VERSION).
    var openSSLValue: Int32 {
        switch self {
        case .tls12: Int32(TLS1_2_VERSION)
        case .tls13: Int32(TLS1_3_VERSION)
        }
    }
}
