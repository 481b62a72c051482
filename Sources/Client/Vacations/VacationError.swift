/// Why a Virtual Vacation command could not do its work, in the user's terms.
struct VacationError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        /// The name cannot be a vacation's (a separator, a leading dot, too long, ...).
        case invalidName
        /// `vacation new` with a name that is taken.
        case alreadyExists
        /// No such vacation, photo, place or tag.
        case notFound
        /// A file in the vacations folder that is damaged, not a vacation, or from a newer client.
        case damaged
        /// The disk or SQLite failed (full, locked for too long, permissions).
        case unavailable
    }

    var kind: Kind
    var message: String
    /// What the user can do about it, for the presenter to word.
    var remedy: Remedy?

    init(_ kind: Kind, _ message: String, remedy: Remedy? = nil) {
        self.kind = kind
        self.message = message
        self.remedy = remedy
    }

    var description: String { message }
}

extension ClientError {
    /// A vacation's failure as a client error, with the documented exit code of its kind.
    init(_ error: VacationError) {
        let kind: ClientError.Kind =
            switch error.kind {
            case .invalidName: .usage
            case .alreadyExists: .rejected
            case .notFound: .notFound
            case .damaged, .unavailable: .local
            }
        self.init(kind, error.message, remedy: error.remedy)
    }
}
