/// Why an account's sessions all ended at once, in the words its live connections are told.
enum AccountClosure: Sendable, Equatable {
    case deleted, disabled

    /// What a live connection of the account is told (`ACCOUNT_CLOSED`, or `SESSION_INVALID`
    /// before protocol version 4).
    var message: String {
        switch self {
        case .deleted: "your account was deleted by an admin; ask your instructor if that is a mistake"
        case .disabled: "your account was disabled by an admin; ask your instructor"
        }
    }
}
