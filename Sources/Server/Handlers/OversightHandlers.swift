import Wire

/// What an admin reads about the server as a whole: its statistics and the audit log. Both only
/// read (their routes say so, and run them with writes refused).
struct OversightHandlers: Sendable {
    let storage: StorageExecutor
    /// The counters the statistics end with.
    let metrics: ServerMetrics
    let clock: WallClock

    func stats(_ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let now = clock.now()
        let stored = try await storage.read { store in try store.statistics(now: now, classID: admin.classID) }
        var entries = stored.map { StatEntry(name: $0.name, value: $0.value) }
        entries.append(StatEntry(name: "connections_open", value: metrics.openConnections))
        entries.append(StatEntry(name: "connections_accepted", value: metrics.acceptedConnections))
        entries.append(StatEntry(name: "requests", value: metrics.requestCount))
        entries.append(StatEntry(name: "socket_send_waits", value: metrics.socketSendWaits))
        entries.append(StatEntry(name: "connections_refused", value: metrics.refusedConnections))
        entries.append(StatEntry(name: "connections_shed", value: metrics.shedConnections))
        entries.append(StatEntry(name: "uptime_seconds", value: (now - metrics.startedAt) / 1000))
        // Appended after uptime_seconds, which the protocol listed first: new entries only ever
        // go at the end. The process's standard error, not this server's: only one writes there.
        entries.append(StatEntry(name: "log_lines_dropped", value: StandardErrorLog.shared.droppedLines))
        return HandlerOutcome(Stats(entries: entries), for: context)
    }

    /// The most entries one AuditLog carries.
    static let auditPage = 5_000

    func auditLog(_ request: AdminAuditLog, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let count = min(Int(request.limit), Self.auditPage)
        // A class's staff read its entries; a site admin reads every entry.
        let classID = admin.isSiteAdmin ? nil : admin.classID
        let entries = try await storage.read { store in try store.auditEntries(since: request.since, limit: count, classID: classID) }
        let limit = FieldLimits.auditText
        return HandlerOutcome(
            AuditLog(
                entries: entries.map {
                    AuditRecord(
                        at: $0.at, actor: $0.actor.truncatedToUTF8Count(limit), action: $0.action.truncatedToUTF8Count(limit),
                        target: $0.target.truncatedToUTF8Count(limit), result: $0.result.truncatedToUTF8Count(limit))
                }), for: context)
    }
}
