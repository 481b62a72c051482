import Wire

/// The class the app acts in, on a server with classes (protocol version 5): `c` lists the
/// account's classes with what is unread in each and switches to the one chosen (saved, as
/// `snapshare use` saves it); the top row names the class, with a dot when another of them has
/// something unread, looked at every `classesCheckInterval` while signed in.
extension AppModel {
    /// How often the other classes' unread counts are looked at (milliseconds).
    static let classesCheckInterval: Int64 = 15_000

    /// Whether the server can choose a class.
    var serverHasClasses: Bool { welcome.map { MessageType.listClasses.exists(in: $0.version) } ?? false }

    /// `c`: the picker.
    func openClassPicker() {
        guard serverHasClasses else {
            setStatus(
                "This server speaks protocol version \(welcome?.version ?? 0), which cannot choose a class; ask its operator to upgrade",
                isError: true)
            return
        }
        setStatus("Asking for your classes…", kind: .progress)
        backend.perform(
            retry: true, { session throws(ClientError) in try session.classes() },
            then: { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let error): setStatus(error.message, isError: true)
                case .success(let classes):
                    noteClasses(classes)
                    guard !classes.isEmpty else {
                        setStatus("You are not in a class on this server; join one with its code: snapshare join CODE")
                        return
                    }
                    setStatus("Choose a class")
                    present(
                        Dialog(
                            choose: "Your classes", question: "The class you act in: its feeds, its snaps, its people.",
                            choices: classes.map { (Self.pickerLine($0), $0.handle) },
                            selected: classes.firstIndex(where: \.isCurrent) ?? 0, answer: "act in it",
                            submit: { [weak self] handle, finish in self?.useClass(handle, finish) },
                            cancel: { [weak self] in self?.setStatus("Still in \(self?.className ?? "your class")") }))
                }
            })
    }

    /// One class in the picker: its handle, name, the role there and what is unread.
    static func pickerLine(_ info: ClassInfo) -> String {
        let name = PrintableText.clean(info.name) + (info.hasEnded ? " (ended)" : "")
        let unread = info.unreadCount == 0 ? "" : " · \(info.unreadCount) unread"
        return "\(PrintableText.clean(info.handle))  \(name)  (\(info.role.name))\(unread)"
    }

    /// Acts in `handle`, saved for this server; the screen shown is fetched again.
    private func useClass(_ handle: String, _ finish: @escaping (Dialog.Outcome) -> Void) {
        backend.perform(
            retry: false,
            { session throws(ClientError) in
                let chosen = try session.useClass(handle)
                try? session.state.saveCurrentClass(chosen.handle, for: session.sessionKey ?? session.settings.serverKey)
                return chosen
            },
            then: { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let error): finish(.refused(error.message))
                case .success(let chosen):
                    finish(.done)
                    signIn.classChanged(to: chosen.handle)
                    setStatus("Now in \(PrintableText.clean(chosen.handle)) (\(PrintableText.clean(chosen.name)))")
                    screens.feeds.classChanged()
                    current.activate()
                    checkClasses(force: true)
                }
            })
    }

    /// Looks at the other classes' unread counts when the last look is older than
    /// `classesCheckInterval` (or at once with `force`).
    func checkClasses(force: Bool = false) {
        guard login == nil, username != nil, serverHasClasses, !signIn.checkingClasses else { return }
        let now = clock()
        guard force || now - signIn.classesCheckedAt >= Self.classesCheckInterval else { return }
        signIn.classesChecking(at: now)
        backend.perform(
            retry: true, { session throws(ClientError) in try session.classes() },
            then: { [weak self] result in
                guard let self else { return }
                signIn.classesChecked()
                if case .success(let classes) = result { noteClasses(classes) }
            })
    }

    /// What a listing of the classes says: the current one, and whether another has something unread.
    private func noteClasses(_ classes: [ClassInfo]) {
        if let current = classes.first(where: \.isCurrent) { signIn.classChanged(to: current.handle) }
        signIn.otherClassesUnread = classes.contains { !$0.isCurrent && $0.unreadCount > 0 }
    }
}
