import COpenSSL

/// A TLS failure: a stable `kind` to branch on, plus a message for people that carries OpenSSL's own words.
public struct TLSError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a stable name. A struct rather than an enum so new kinds do not break callers' switches.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The stable name, e.g. "hostname-mismatch"; safe to log and to compare.
        public let name: String

        init(_ name: String) {
            self.name = name
        }

        public var description: String { name }

        /// The handshake failed for a reason not covered by a more specific kind (bad bytes, alert from the peer).
        public static let handshakeFailed = Kind("handshake-failed")
        /// The peer's certificate chain did not verify against the trusted roots.
        public static let certificateVerifyFailed = Kind("certificate-verify-failed")
        /// The certificate is valid but names another host or IP address.
        public static let hostnameMismatch = Kind("hostname-mismatch")
        /// The peer offered or accepted only versions below TLS 1.3.
        public static let protocolVersion = Kind("protocol-version")
        /// The peer ended the session cleanly with close_notify; or the engine was used after close().
        public static let closed = Kind("closed")
        /// The network closed without close_notify, so the data may have been truncated.
        public static let unexpectedEOF = Kind("unexpected-eof")
        /// After the handshake, the peer sent bytes that are not valid TLS records (bad MAC, bad framing).
        public static let protocolViolation = Kind("protocol-violation")
        /// A certificate, key or trust file is missing, unreadable, malformed, or the key does not match.
        public static let configuration = Kind("configuration")
        /// OpenSSL failed in a way that points at a bug or resource exhaustion, or the engine was misused.
        public static let `internal` = Kind("internal")
    }

    /// The stable classification of the failure.
    public let kind: Kind
    /// A one-line explanation for logs and users, including OpenSSL's error-queue text when there is any.
    public let message: String
    /// The X509_V_ERR_* code when certificate verification failed (62 = hostname mismatch, 64 = IP mismatch).
    public let verifyCode: Int?
    /// The entries OpenSSL left in its error queue, formatted by ERR_error_string_n.
    public let openSSLErrors: [String]

    /// Makes an error whose message is `summary` followed by the OpenSSL queue entries, if any.
    init(kind: Kind, summary: String, verifyCode: Int? = nil, openSSLErrors: [String] = []) {
        self.kind = kind
        self.verifyCode = verifyCode
        self.openSSLErrors = openSSLErrors
        if openSSLErrors.isEmpty {
            message = summary
        } else {
            message = "\(summary) [\(openSSLErrors.joined(separator: "; "))]"
        }
    }

    /// Makes an error of `kind` from `summary` and whatever OpenSSL has queued, emptying the queue.
    static func drainingErrorQueue(_ kind: Kind, _ summary: String) -> TLSError {
        TLSError(kind: kind, summary: summary, openSSLErrors: OpenSSLErrorQueue.drain().map(\.text))
    }

    /// Makes a certificate verification error from an X509_V_ERR_* code; hostname and IP mismatches get their own kind.
    static func verification(code: Int, openSSLErrors: [String] = []) -> TLSError {
        let isNameMismatch = code == Int(X509_V_ERR_HOSTNAME_MISMATCH) || code == Int(X509_V_ERR_IP_ADDRESS_MISMATCH)
        let reason = String(cString: X509_verify_cert_error_string(code))
        return TLSError(
            kind: isNameMismatch ? .hostnameMismatch : .certificateVerifyFailed,
            summary: "certificate verify failed: \(reason) (\(code))",
            verifyCode: code,
            openSSLErrors: openSSLErrors
        )
    }

    public var description: String { "TLS error (\(kind)): \(message)" }
}
