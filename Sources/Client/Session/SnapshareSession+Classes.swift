import Wire

/// Classes (protocol version 5): the account's classes, the one this connection acts in, joining
/// one by its code, and the staff's members of a class.
extension SnapshareSession {
    /// The account's classes, with the current one marked and what is unread in each.
    package func classes() throws(ClientError) -> [ClassInfo] {
        try requireVersion(5, for: "classes")
        return (try request(ListClasses()) as Classes).classes
    }

    /// Acts in the class `handle` from now on, on this connection and any that replaces it.
    @discardableResult
    package func useClass(_ handle: String) throws(ClientError) -> ClassInfo {
        try requireVersion(5, for: "choosing a class")
        let chosen: ClassChosen = try request(UseClass(handle: handle))
        chosenClass = chosen.chosen
        return chosen.chosen
    }

    /// Joins the class `code` opens, and acts in it from now on.
    package func joinClass(code: String) throws(ClientError) -> ClassInfo {
        try requireVersion(5, for: "joining a class")
        let chosen: ClassChosen = try request(JoinClass(code: code))
        chosenClass = chosen.chosen
        return chosen.chosen
    }

    package func members() throws(ClientError) -> [ClassMemberInfo] {
        try requireVersion(5, for: "a class's members")
        return (try request(AdminListMembers()) as Members).members
    }

    package func setRole(_ username: String, _ role: ClassRoleName) throws(ClientError) {
        try requireVersion(5, for: "roles in a class")
        let _: Ok = try request(AdminSetRole(username: username, role: role))
    }

    package func removeMember(_ username: String) throws(ClientError) {
        try requireVersion(5, for: "taking a member out of a class")
        let _: Ok = try request(AdminRemoveMember(username: username))
    }

    /// Acts in the class `asked` names (`--class`, `$SNAPSHARE_CLASS`), else in the one `snapshare
    /// use` saved for this server, else in the account's default class (nothing is sent). A saved
    /// class the account has left is forgotten, and the returned notice says so, as it says when
    /// the server is too old to choose one; a class asked for that is not the account's, or on
    /// such a server, is the caller's error.
    package func chooseClass(asked: String?) throws(ClientError) -> String? {
        if let asked {
            try useClass(asked)
            return nil
        }
        let key = sessionKey ?? settings.serverKey
        guard let saved = (try? state.currentClass(for: key)) ?? nil else { return nil }
        guard speaksClasses else {
            // Said once: the choice is forgotten, to be made again once the server can take it.
            try? state.saveCurrentClass(nil, for: key)
            return "the server speaks protocol version \(connection.protocolVersion), which cannot choose a class: "
                + "acting in the class you joined first, not \(saved) (choose it again with snapshare use once the server is upgraded)"
        }
        do {
            try useClass(saved)
            return nil
        } catch  where error.serverCode == .notFound {
            try? state.saveCurrentClass(nil, for: key)
            return "you are no longer in the class \(saved); acting in your default class (see snapshare classes)"
        }
    }

    /// Whether the server can carry classes at all (protocol version 5).
    package var speaksClasses: Bool { MessageType.useClass.exists(in: connection.protocolVersion) }
}
