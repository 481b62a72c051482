/// The audit log: every admin action, kept for the whole term (expiry, resets and purges never
/// remove it; backups, restores and migrations carry it).
public protocol AuditStore: AnyObject {
    /// Appends one entry.
    func recordAudit(_ entry: AuditEntry) throws
    /// Entries at or after `since`, oldest first, at most `limit`.
    func auditEntries(since: Int64, limit: Int) throws -> [AuditEntry]
}

/// One admin action: when (Unix milliseconds), who (an admin's name, or `offline:` and the
/// operating-system user), what (the request or command), its target, and its result (`ok` or
/// the error code's name).
public struct AuditEntry: Sendable, Equatable {
    public var at: Int64
    public var actor: String
    public var action: String
    public var target: String
    public var result: String

    public init(at: Int64, actor: String, action: String, target: String, result: String) {
        self.at = at; self.actor = actor; self.action = action; self.target = target; self.result = result
    }
}
