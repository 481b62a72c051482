import Wire

/// The audit log (its entries are the protocol's `AuditRecord`: when in Unix milliseconds, who
/// — an admin's name, or `offline:` and the operating-system user — what, the target, and the
/// result, `ok` or the error code's name): every admin action, kept for the whole term (expiry, resets and purges never
/// remove it; backups, restores and migrations carry it).
package protocol AuditStore: AnyObject {
    /// Appends one entry, of the class it acted in (of the whole server when nil).
    func recordAudit(_ entry: AuditRecord, classID: Int64?) throws
    /// Entries at or after `since`, oldest first, at most `limit`: of one class when `classID`
    /// is given, else every entry.
    func auditEntries(since: Int64, limit: Int, classID: Int64?) throws -> [AuditRecord]
}
