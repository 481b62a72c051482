import Wire

/// Password and class-code attempts, counted against their budgets (`LoginThrottle`): spent by
/// the account requests (register, login, a password change), lifted by an admin's unlocks and
/// password resets. Every decision that holds someone back is logged with the name and address,
/// never the secret.
struct LoginAttempts: Sendable {
    /// Wrong passwords, per name and address, per address, and per name.
    let logins: LoginThrottle
    /// Wrong class codes at registration, per address and server-wide.
    let classCodes: LoginThrottle
    /// Wrong passwords from devices that logged in before: each device's own budget.
    let deviceLogins: LoginThrottle
    let storage: StorageExecutor
    let metrics: ServerMetrics
    let logger: Logger
    let clock: WallClock

    init(configuration: ServerConfiguration, storage: StorageExecutor, metrics: ServerMetrics, logger: Logger, clock: WallClock) {
        logins = LoginThrottle(kind: "login", policy: configuration.loginThrottle)
        classCodes = LoginThrottle(kind: "class-code", policy: configuration.classCodeThrottle)
        deviceLogins = LoginThrottle(kind: "login-device", policy: configuration.deviceLoginThrottle)
        self.storage = storage
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
    }

    /// Lifts the budgets that hold a user name's failures (an unlock of the name, or a reset of
    /// its password): its passwords', from every address and device. Returns how many entries held failures.
    func unlock(name: String, now: Int64, in store: any ThrottleStore) throws -> Int {
        try [logins, deviceLogins].reduce(0) { $0 + (try $1.unlock(name: name, now: now, in: store)) }
    }

    /// Lifts the budgets that hold an address's failures: its passwords' and its class codes'.
    func unlock(address: String, now: Int64, in store: any ThrottleStore) throws -> Int {
        try [logins, classCodes].reduce(0) { $0 + (try $1.unlock(address: address, now: now, in: store)) }
    }

    /// Reserves a password (or class code) attempt, waiting out its delay; a refusal is
    /// `RATE_LIMITED` with when to retry.
    func begin(
        _ throttle: LoginThrottle, name: String, _ context: RequestContext,
        what: String, from address: String
    ) async throws -> LoginThrottle.Attempt {
        let shown = name.isEmpty ? "" : " for \(name.lowercased())"
        let now = clock.now()
        // A refusal is found on a reader; only an attempt that may go on takes the writer.
        let refused = try await storage.read { store in try throttle.refusal(name: name, address: address, now: now, in: store) }
        let decision =
            if let refused { refused } else {
                try await storage.write { store in try throttle.begin(name: name, address: address, now: now, in: store) }
            }
        switch decision {
        case .refused(let scope, let retryAfter):
            let seconds = (retryAfter + 999) / 1000
            let minutes = throttle.policy.window / 60_000
            let (reason, remedy) = Self.refusal(
                scope, what: what, name: name, address: context.peerAddress,
                fromDevice: address != context.peerAddress)
            metrics.throttleRefused(throttle.kind)
            logger.warning("\(what)\(shown) from \(context.peerAddress) refused: \(reason) in \(minutes) min; retry in \(seconds) s")
            throw ErrorMessage(code: .rateLimited, message: "\(reason); try again in \(seconds) s\(remedy)")
        case .allowed(let attempt):
            if attempt.delay > 0 {
                logger.info(
                    "\(what)\(shown) from \(context.peerAddress) delayed \(attempt.delay) ms: "
                        + "\(attempt.recentFailures) recent failures\(shown)")
                do {
                    try await Task.sleep(for: .milliseconds(attempt.delay))
                } catch {
                    await finish(throttle, attempt, .abandoned)
                    throw error
                }
            }
            return attempt
        }
    }

    /// Why an attempt was refused, and what lifts it: every refusal names a remedy that really
    /// does (the budget's own unlock, or another device), besides waiting.
    static func refusal(
        _ scope: LoginThrottle.Scope, what: String, name: String, address: String,
        fromDevice: Bool
    ) -> (reason: String, remedy: String) {
        let shown = name.isEmpty ? "" : " for \(name.lowercased())"
        let unlockName = " (an admin can lift this with: snapshare admin unlock \(name.lowercased()))"
        let unlockAddress = " (an admin can lift this with: snapshare admin unlock --address \(address))"
        if fromDevice { return ("too many failed \(what) attempts\(shown) from this device", unlockName) }
        switch scope {
        case .nameAndAddress where name.isEmpty, .address:
            return ("too many failed \(what) attempts from your address (\(address))", unlockAddress)
        case .nameAndAddress:
            return (
                "too many failed \(what) attempts\(shown) from your address",
                ", or log in from a device you logged in with before\(unlockName)"
            )
        case .name where name.isEmpty:
            return ("too many failed \(what) attempts on this server", "")
        case .name:
            return ("too many failed \(what) attempts\(shown) from several addresses", unlockName)
        }
    }

    /// Ends an attempt in the budgets. A failure to record it is logged rather than thrown: the
    /// attempt's reservation then lapses into a failure (`LoginThrottle.Policy.pendingLifetime`).
    func finish(_ throttle: LoginThrottle, _ attempt: LoginThrottle.Attempt, _ outcome: LoginThrottle.Outcome) async {
        let now = clock.now()
        do {
            try await storage.write { store in try throttle.finish(attempt, outcome, now: now, in: store) }
        } catch {
            logger.error("could not record the end of a \(throttle.kind) attempt for \(attempt.name): \(error)")
        }
    }
}
