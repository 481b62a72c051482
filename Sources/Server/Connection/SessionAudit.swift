/// Notices sessions ended and admin rights changed by another process (the offline
/// `snapshare-server admin` commands run while the server does), so they take effect on live
/// connections too. Changes made through this server reach its connections at once, without
/// waiting for the audit.
///
/// Why an epoch: the database bumps one counter on every session deletion and every change of a
/// user's admin flag or password (triggers, schema version 4). Reading it is one row a second;
/// only when it moved are the live connections' sessions looked up.
final class SessionAudit: @unchecked Sendable {
    private let storage: StorageExecutor
    private let loop: EventLoop
    // Loop thread only.
    private var knownEpoch: Int64?
    private var checking = false

    init(storage: StorageExecutor, loop: EventLoop) {
        self.storage = storage
        self.loop = loop
    }

    /// On the loop thread: when the epoch moved, looks up `liveSessions()` (each live session's
    /// token hash and user, called on the loop)
    /// and hands their current access to `apply` on the loop.
    func check(
        liveSessions: @escaping () -> [[UInt8]: Int64], now: Int64,
        apply: @escaping ([SessionAccess]) -> Void
    ) {
        guard !checking else { return }
        checking = true
        let box = UncheckedBox((liveSessions, apply))
        storage.read(
            { store in try store.accessEpoch() },
            completion: { [self] result in
                loop.execute { [self] in
                    guard case .success(let epoch) = result, epoch != knownEpoch else {
                        checking = false
                        return
                    }
                    // The first look checks too: a change may have come between the start and now.
                    knownEpoch = epoch
                    let sessions = box.value.0().map { (tokenHash: $0.key, userID: $0.value) }
                    guard !sessions.isEmpty else {
                        checking = false
                        return
                    }
                    storage.read(
                        { store in try store.sessionAccess(sessions: sessions, now: now) },
                        completion: { [self] result in
                            loop.execute { [self] in
                                checking = false
                                if case .success(let access) = result { box.value.1(access) }
                            }
                        })
                }
            })
    }
}

/// Carries loop-thread closures through storage completions back to the loop thread.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
