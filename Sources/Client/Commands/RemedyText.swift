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
        case .checkChangedCertificate(let serverKey, let trusted, let presented):
            "this may be an attack.\n" + Self.changedCertificateAdvice(serverKey: serverKey, trustedHex: trusted, presentedHex: presented)
        case .chooseServer: "name one with --server"
        }
    }
}

extension Remedy {
    /// What to do about a changed pinned certificate, as lines: both fingerprints and the one
    /// command that trusts the new one. The command line and the app's screen both show it.
    static func changedCertificateAdvice(serverKey: String, trustedHex: String, presentedHex: String) -> String {
        let presented = DevCertificateAuthority.formatFingerprint(hex: presentedHex)
        return """
              trusted before:  \(DevCertificateAuthority.formatFingerprint(hex: trustedHex))
              presented now:   \(presented)
            If your instructor renewed it, ask for the fingerprint snapshare-server printed at its start
            ("clients without --ca pin it"). Only if it is the one presented now, trust it with:
              snapshare trust \(serverKey) \(presented)
            """
    }
}

extension SessionNotice {
    /// The notice as the command line prints it (on standard error).
    var commandLine: String {
        switch self {
        case .trustedOnFirstUse(let serverKey, let hex, let isAuthority):
            "Trusting \(serverKey) on first use; "
                + (isAuthority ? "SHA-256 fingerprint of its certificate authority:\n  " : "certificate SHA-256 fingerprint:\n  ")
                + DevCertificateAuthority.formatFingerprint(hex: hex)
                + "\nCompare it with the one snapshare-server printed at its start (\"clients without --ca pin it\"). "
                + (isAuthority ? "Certificates from another authority will be refused. " : "A different certificate will be refused. ")
                + "Use --ca FILE to verify with the class CA instead."
        }
    }
}
