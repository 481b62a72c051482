import Foundation

/// Device tokens: this machine's proof, per server and user, that it logged in before, so the
/// server judges its logins by its own failure budget (not its address's). Kept as
/// `devices/<host_port>/<user>.device`, one token line, mode 0600, beside the sessions.
extension ClientState {
    /// The folder of `server`'s device tokens.
    func devicesDirectory(for server: String) -> String {
        path("devices") + "/" + Self.fileName(for: server)
    }

    /// The file of `username`'s device token on `server` (names compare ignoring case).
    func devicePath(for server: String, username: String) -> String {
        devicesDirectory(for: server) + "/" + Self.fileName(for: username.lowercased()) + ".device"
    }

    /// The device token saved for `username` on `server`, or nil.
    package func deviceToken(for server: String, username: String) throws(ClientStateError) -> String? {
        guard let text = try StateFile.read(devicePath(for: server, username: username)) else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }

    /// Remembers `token` for `username` on `server`, replacing an earlier one.
    func saveDeviceToken(_ token: String, for server: String, username: String) throws(ClientStateError) {
        guard !token.isEmpty, !token.contains(where: { $0.isNewline }) else {
            throw .invalidSession("the device token must be one non-empty line")
        }
        try write(token + "\n", to: devicePath(for: server, username: username))
    }
}
