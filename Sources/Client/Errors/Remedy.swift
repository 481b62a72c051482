/// What the user can do about a failure.
///
/// The client's logic says which remedy applies; whoever presents the failure says how: the
/// command line names a command (`Remedy.commandLine`), a full-screen view would name a key or
/// a tab. Keeping the two apart is why errors from sessions and vacations carry this instead of
/// advice written into their messages.
package enum Remedy: Sendable, Equatable {
    /// Log in, as this user when known, or register.
    case logIn(username: String?)
    /// Make the vacation that was asked for.
    case createVacation(String)
    /// See which vacations there are.
    case listVacations
    /// See a vacation's places.
    case showItinerary(vacation: String)
    /// See a vacation's tags.
    case showTags(vacation: String)
    /// A pinned certificate changed: check the new one with the instructor before trusting it
    /// (`snapshare trust SERVER FINGERPRINT`). Fingerprints as lowercase hex.
    case checkChangedCertificate(serverKey: String, trustedHex: String, presentedHex: String)
    /// A photo id exists in several servers' albums: say which server.
    case chooseServer
}
