import TLS

extension Remedy {
    /// The remedy as the command line says it, to follow a failure's message after "; ".
    var commandLine: String {
        switch self {
        case .logIn(let username?): "log in again with `snapshare login \(PrintableText.clean(username))`"
        case .logIn(nil): "run `snapshare login USER` or `snapshare register USER`"
        case .createVacation(let name):
            "create it with `snapshare vacation new \"\(PrintableText.clean(name))\"` (see `snapshare vacation list`)"
        case .listVacations: "see `snapshare vacation list`"
        case .showItinerary(let vacation): "see `snapshare itinerary\(VacationPresenter.option(vacation))`"
        case .showTags(let vacation): "see `snapshare tags\(VacationPresenter.option(vacation))`"
        case .checkChangedCertificate(let serverKey, let path):
            "this may be an attack. If the instructor really replaced the certificate, verify the new fingerprint "
                + "with them and remove the line for \(serverKey) from \(path)"
        case .chooseServer: "name one with --server"
        }
    }
}

extension SessionNotice {
    /// The notice as the command line prints it (on standard error).
    var commandLine: String {
        switch self {
        case .trustedOnFirstUse(let serverKey, let hex):
            "Trusting \(serverKey) on first use; certificate SHA-256 fingerprint:\n  "
                + DevCertificateAuthority.formatFingerprint(hex: hex)
                + "\nCompare it with the one the server printed; a later change will be refused. "
                + "Use --ca FILE to verify with the class CA instead."
        }
    }
}
