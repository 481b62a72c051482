import Testing

@testable import Server

/// What every engine keeps apart between classes: a call made in one class finds nothing of
/// another's, by name or by id, and changes nothing there (issue 34).
@Suite("Class data apart contract")
struct ClassDataApartContract {
    @Test(
        "two classes each have their Memes; a snap of one is not found, opened, deleted or approved from the other",
        arguments: StoreEngine.all)
    func snapsAndFeedsStayInTheirClass(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let first = try store.firstClassID()
            let lab = try store.createClass(NewClass(handle: "lab", name: "Lab", code: "LAB-CODE"), ownerID: fixture.carol.id, at: 5)
            let labMemes = try #require(try store.feed(named: "Memes", classID: lab.id))
            #expect(labMemes.id != fixture.feed.id && labMemes.classID == lab.id)
            #expect(storeErrorKind { _ = try store.createFeed(name: "MEMES", classID: lab.id, at: 6) } == .conflict)
            _ = try store.createFeed(name: "Lab only", classID: lab.id, at: 6)
            #expect(try store.feed(named: "Lab only", classID: first) == nil)

            let ours = try fixture.post(by: fixture.alice)
            let theirs = try fixture.post(by: fixture.bob, feedID: labMemes.id, awaitingApproval: true)
            #expect(try store.snapListings(classID: first, feedID: nil, viewerID: fixture.carol.id, now: 0).map(\.id) == [ours.id])
            #expect(try store.snapListing(id: theirs.id, classID: first, viewerID: fixture.bob.id, now: 0) == nil)
            #expect(try store.snapListing(id: theirs.id, classID: lab.id, viewerID: fixture.bob.id, now: 0)?.id == theirs.id)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: ours.id, classID: lab.id, viewerID: fixture.bob.id, now: 0) } == .notFound)
            #expect(try store.snapViewers(snapID: ours.id).isEmpty, "a refused claim spent no view")
            #expect(storeErrorKind { try store.deleteSnap(id: ours.id, classID: lab.id) } == .notFound)
            #expect(storeErrorKind { _ = try store.snapPicture(id: ours.id, classID: lab.id) } == .notFound)
            #expect(storeErrorKind { try store.approveSnap(id: theirs.id, classID: first) } == .notFound)
            #expect(try store.snapsAwaitingApproval(classID: first).isEmpty)
            #expect(try store.snapsAwaitingApproval(classID: lab.id).map(\.id) == [UInt64(theirs.id)])
            #expect(try store.exportedSnaps(classID: first, afterID: 0, limit: 10, includePending: true).total == 1)
            #expect(try store.postingUsage(posterID: fixture.bob.id, classID: first, since: 0).recentPosts == 0)
            #expect(try store.postingUsage(posterID: fixture.bob.id, classID: lab.id, since: 0).recentPosts == 1)

            // Reports and resets stay in their class too.
            try store.addReport(snapID: ours.id, reporterID: fixture.bob.id, reason: "rude", at: 7)
            #expect(try store.openReports(classID: lab.id).isEmpty)
            #expect(storeErrorKind { _ = try store.dismissReports(snapID: ours.id, classID: lab.id, now: 8) } == .notFound)
            #expect(try store.openReports(classID: first).map(\.snapID) == [UInt64(ours.id)])
            #expect(try store.resetAllFeeds(classID: lab.id) == 1)
            #expect(
                try store.snapListing(id: ours.id, classID: first, viewerID: fixture.carol.id, now: 0) != nil, "the other class's reset")
            #expect(try store.countSnaps(postedBefore: 5_000, classID: lab.id) == 0)
            #expect(try store.countSnaps(postedBefore: 5_000, classID: first) == 1)
        }
    }

    @Test("suspensions, rosters and the audit log are each class's own", arguments: StoreEngine.all)
    func suspensionsRostersAndAuditStayInTheirClass(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let first = try store.firstClassID()
            let lab = try store.createClass(NewClass(handle: "lab", name: "Lab", code: "LAB-CODE"), ownerID: fixture.carol.id, at: 5)
            try store.suspend(userID: fixture.bob.id, classID: lab.id, until: 100, reason: "spam", by: "carol", at: 1)
            #expect(try store.suspension(userID: fixture.bob.id, classID: first, now: 10) == nil)
            #expect(try store.suspension(userID: fixture.bob.id, classID: lab.id, now: 10)?.reason == "spam")
            #expect(try store.suspension(userID: fixture.bob.id, classID: nil, now: 10)?.reason == "spam", "any class, for what is his own")
            #expect(try store.unsuspend(userID: fixture.bob.id, classID: first, now: 10) == false)

            // The same name on two rosters: the account of that name holds both entries.
            let entry = RosterEntry(name: "dave", displayName: "Dave", isAdmin: false, addedAt: 1)
            #expect(try store.putRosterEntry(entry, classID: first) == .added)
            #expect(try store.putRosterEntry(entry, classID: lab.id) == .added)
            let dave = try store.createUser(name: "dave", passwordHash: "h", isAdmin: false, at: 2)
            #expect(try store.rosterEntry(named: "dave", classID: first)?.claimedBy == dave.id)
            #expect(try store.rosterEntry(named: "dave", classID: lab.id)?.claimedBy == dave.id)
            try store.removeRosterEntry(named: "dave", classID: lab.id)
            #expect(try store.rosterMembers(classID: lab.id).isEmpty)
            #expect(try store.rosterMembers(classID: first).count == 1)
            #expect(try store.clearRoster(classID: first) == 1)

            try store.recordAudit(.init(at: 1, actor: "carol", action: "AdminSuspend", target: "user bob", result: "ok"), classID: lab.id)
            try store.recordAudit(.init(at: 2, actor: "offline:root", action: "backup", target: "to x", result: "ok"), classID: nil)
            #expect(try store.auditEntries(since: 0, limit: 10, classID: lab.id).map(\.action) == ["AdminSuspend"])
            #expect(try store.auditEntries(since: 0, limit: 10, classID: first).isEmpty)
            #expect(try store.auditEntries(since: 0, limit: 10, classID: nil).count == 2)
        }
    }
}
