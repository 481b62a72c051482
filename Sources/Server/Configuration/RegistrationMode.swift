/// Who may register (`--registration`): anyone with the class code, only the names on the
/// roster (`snapshare-server admin import-roster`), or nobody (accounts come from an admin).
package enum RegistrationMode: String, Sendable, CaseIterable {
    case open, roster, closed
}
