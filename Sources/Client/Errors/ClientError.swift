import Wire

/// Why a client command failed, mapped once to an exit code (see `ExitCode`).
package struct ClientError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case usage, connection, tls, auth, notFound, alreadyViewed, expired, rejected, server, integrity, local
        /// This client and the server share no protocol version, or the server's lacks the request.
        case incompatible
        /// The user pressed Ctrl-C while the command waited.
        case interrupted
        /// The camera could not be used: FFmpeg missing, no such camera, busy or not permitted,
        /// no frame in time, FFmpeg ended, or the terminal too small for the preview.
        case camera
        /// The user cancelled (Esc in the camera's preview): nothing was done.
        case cancelled
    }

    package var kind: Kind
    package var message: String
    /// The server's error code, when the server said no.
    package var serverCode: ErrorCode?
    /// What the user can do about it, for the presenter to word.
    var remedy: Remedy?
    /// The server's certificate was refused (it does not verify, or it is not the one pinned):
    /// trying again changes nothing until someone acts, so the app stops and says so.
    var refusedCertificate = false

    package init(_ kind: Kind, _ message: String, serverCode: ErrorCode? = nil, remedy: Remedy? = nil) {
        self.kind = kind
        self.message = message
        self.serverCode = serverCode
        self.remedy = remedy
    }

    /// A `.tls` failure refusing the server's certificate.
    static func certificate(_ message: String, remedy: Remedy? = nil) -> ClientError {
        var error = ClientError(.tls, message, remedy: remedy)
        error.refusedCertificate = true
        return error
    }

    package var description: String { message }

    /// Classifies an Error frame from the server: the codes with an exit code of their own, then
    /// every other by its hundred (docs/PROTOCOL.md, section 4): a 2xx is a refusal of access
    /// (not logged in, not allowed, a one-time password still to replace), a 3xx a request the
    /// server rejected, anything else a failure. A code added after this client is judged so too.
    package init(server error: ErrorMessage) {
        let kind: Kind
        switch error.code {
        case .notFound: kind = .notFound
        case .alreadyViewed: kind = .alreadyViewed
        case .expired: kind = .expired
        case .unsupportedVersion: kind = .incompatible
        case let code where (200..<300).contains(code.rawValue) && code != .usernameTaken: kind = .auth
        case let code where (300..<400).contains(code.rawValue) || code == .usernameTaken: kind = .rejected
        default: kind = .server
        }
        self.init(kind, error.message, serverCode: error.code)
    }

    /// The connection is gone: dropped, or closed by the server right after telling why (it is
    /// stopping, or the connection sat idle too long). A new connection may well work.
    package var isConnectionLoss: Bool {
        kind == .connection || serverCode == .shuttingDown || serverCode == .timeout
    }

    /// The process exit code for this failure.
    package var exitCode: Int32 { ExitCode.for(kind).rawValue }
}

/// The client's documented exit codes.
struct ExitCode: Sendable, Equatable {
    let rawValue: Int32
    static let success = ExitCode(rawValue: 0)
    static let failure = ExitCode(rawValue: 1)
    static let usage = ExitCode(rawValue: 2)
    static let connection = ExitCode(rawValue: 3)
    static let auth = ExitCode(rawValue: 4)
    static let notFound = ExitCode(rawValue: 5)
    static let alreadyViewed = ExitCode(rawValue: 6)
    static let expired = ExitCode(rawValue: 7)
    static let rejected = ExitCode(rawValue: 8)
    /// No protocol version in common with the server, or a request its version lacks.
    static let incompatible = ExitCode(rawValue: 9)
    /// The camera could not be used (`post --camera`, `camera --list`); nothing was posted.
    static let camera = ExitCode(rawValue: 10)
    /// Cancelled by the user (Esc in the camera's preview); nothing was posted.
    static let cancelled = ExitCode(rawValue: 11)
    /// 128 + SIGINT, as shells report a command stopped by Ctrl-C.
    static let interrupted = ExitCode(rawValue: 130)

    static func `for`(_ kind: ClientError.Kind) -> ExitCode {
        switch kind {
        case .usage: .usage
        case .connection, .tls: .connection
        case .auth: .auth
        case .notFound: .notFound
        case .alreadyViewed: .alreadyViewed
        case .expired: .expired
        case .rejected: .rejected
        case .incompatible: .incompatible
        case .server, .integrity, .local: .failure
        case .interrupted: .interrupted
        case .camera: .camera
        case .cancelled: .cancelled
        }
    }
}
