import Wire

/// Golden vectors of docs/PROTOCOL.md for accounts and sessions beyond the core ones (5.2).
enum AccountVectors {
    static func cases() -> [(String, Frame)] {
        [
            ("logout", Frame(Logout(), requestID: 40)),
            ("ok", Frame(Ok(), requestID: 40)),
            ("who-am-i", Frame(WhoAmI(), requestID: 41)),
            (
                "authenticated-who-am-i",
                Frame(
                    Authenticated(token: "", username: "ada", isAdmin: true, createdAt: GoldenVectors.time),
                    requestID: 41)
            ),
            ("change-password", Frame(ChangePassword(oldPassword: "correct horse", newPassword: "battery staple"), requestID: 42)),
            ("login-with-device", Frame(LoginWithDevice(username: "ada", password: "correct horse", deviceToken: "dev"), requestID: 43)),
            ("issue-device-token", Frame(IssueDeviceToken(), requestID: 44)),
            ("device-token", Frame(DeviceToken(token: "dev"), requestID: 44)),
            ("error-rate-limited", Frame(ErrorMessage(code: .rateLimited, message: "try again in 900 s"), requestID: 2)),
            ("error-session-ended", Frame(ErrorMessage(code: .sessionInvalid, fatal: true, message: "logged out"), requestID: 0)),
        ]
    }
}
