import Wire

/// The class's roster online: `snapshare admin roster` and `admin roster remove NAME`.
struct RosterHandlers: Sendable {
    let storage: StorageExecutor
    let logger: Logger

    func listRoster(_ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let members = try await storage.read { store in try store.rosterMembers(classID: admin.classID) }
        return HandlerOutcome(Roster(members: members.map(RosterMember.init)), for: context)
    }

    func removeRosterEntry(_ request: AdminRemoveRosterEntry, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let name = request.name
        let removed = try await storage.write { store in try store.removeRosterEntry(named: name, classID: admin.classID) }
        logger.warning(
            "admin \(admin.name) took \(removed.entry.name) off the roster" + (removed.account.map { " (claimed by \($0))" } ?? ""))
        return HandlerOutcome(Ok(), for: context)
    }
}
