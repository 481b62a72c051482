import Wire

/// Golden vectors of docs/PROTOCOL.md for classes (5.8, version 5).
enum ClassVectors {
    static func cases() -> [(String, Frame)] {
        let fall = ClassInfo(
            handle: "cs193p-f26", name: "CS193P Fall 2026", role: .student, isCurrent: true, unreadCount: 3, hasEnded: false)
        let lab = ClassInfo(handle: "lab", name: "Lab", role: .ta, isCurrent: false, unreadCount: 0, hasEnded: false)
        var chosen = lab
        chosen.isCurrent = true
        return [
            ("list-classes", Frame(ListClasses(), requestID: 90)),
            ("classes", Frame(Classes(classes: [fall, lab]), requestID: 90)),
            ("use-class", Frame(UseClass(handle: "lab"), requestID: 91)),
            ("class-chosen", Frame(ClassChosen(chosen: chosen), requestID: 91)),
            ("join-class", Frame(JoinClass(code: "JOIN-F26"), requestID: 92)),
            ("admin-list-members", Frame(AdminListMembers(), requestID: 93)),
            (
                "members",
                Frame(
                    Members(members: [
                        ClassMemberInfo(username: "grace", role: .owner, joinedAt: GoldenVectors.time),
                        ClassMemberInfo(username: "ada", role: .student, joinedAt: GoldenVectors.time + 60_000),
                    ]), requestID: 93)
            ),
            ("admin-set-role", Frame(AdminSetRole(username: "tina", role: .ta), requestID: 94)),
            ("admin-remove-member", Frame(AdminRemoveMember(username: "tina"), requestID: 95)),
        ]
    }
}
