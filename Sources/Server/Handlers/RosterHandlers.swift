import Wire

/// The roster online: `snapshare admin roster` and `admin roster remove NAME`.
extension RequestHandler {
    func adminListRoster(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireUser(context)
        let members = try await storage.read { store in try store.rosterMembers() }
        return HandlerOutcome(Roster(members: members.map(Self.rosterMember)), for: context)
    }

    func adminRemoveRosterEntry(_ request: AdminRemoveRosterEntry, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let name = request.name
        let removed = try await storage.write { store in try store.removeRosterEntry(named: name) }
        logger.warning("admin \(admin.name) took \(removed.entry.name) off the roster" + (removed.account.map { " (claimed by \($0))" } ?? ""))
        return HandlerOutcome(Ok(), for: context)
    }

    /// A roster entry as the protocol (and `RosterReport`) tells it.
    static func rosterMember(_ record: RosterMemberRecord) -> RosterMember {
        let status: RosterStatus = if record.account == nil { .notRegistered } else if record.hasOneTimePassword { .oneTimePassword }
            else if record.lastSignIn > 0 { .signedIn } else { .notSignedIn }
        return RosterMember(name: record.entry.name, displayName: record.entry.displayName, isAdmin: record.entry.isAdmin,
                            addedAt: record.entry.addedAt, account: record.account ?? "", status: status, lastSignIn: record.lastSignIn)
    }
}
