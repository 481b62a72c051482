import TerminalUI

/// The app's own keys, tried after the screen's: both the dispatch (`AppModel.handle`) and the
/// `?` help's last lines come from these tables. The tabs' keys while signed in (only the tabs
/// this user has), fewer over the login form (where letters are typed), and the two that work
/// over every box, dialog, picture and the trust screen too.
enum AppKeys {
    /// `?`, and F1, which works while a field takes the typing too.
    private static let help = KeyTable<AppModel>.Binding([.key(.function(1)), .character("?")], "these keys") { $0.overlay = .help }

    private static let suspend = KeyTable<AppModel>.Binding([.key(.control("z"))], "suspend (fg brings the app back)") {
        $0.suspendRequested = true
    }

    /// What works over a box, a dialog, a picture or the trust screen too.
    static let everywhere = KeyTable<AppModel>([
        suspend,
        .init([.key(.control("c"))], "quit") { $0.quit() },
    ])

    /// Over the login form: its fields take the letters.
    static let login = KeyTable<AppModel>([
        help,
        suspend,
        .init([.key(.control("c"))], "quit") { $0.quit() },
    ])

    /// A student's tabs, and an admin's (Reports too): the help names no tab the user cannot open.
    static let student = tabs(AppTab.allCases.filter { $0 != .reports })
    static let admin = tabs(AppTab.allCases)

    private static func tabs(_ tabs: [AppTab]) -> KeyTable<AppModel> {
        KeyTable([
            .init(
                "switch tabs",
                cases: [
                    .init([.key(.tab)]) { $0.select(neighbour(of: $0, 1)) },
                    .init([.key(.backTab)]) { $0.select(neighbour(of: $0, -1)) },
                ]
                    + tabs.map { tab in .init([.character(tab.digit)]) { $0.select(tab) } }),
            .init(
                [.click], "a tab in the top row",
                event: { app, event in
                    guard case .mouse(let mouse) = event, mouse.row == 0, let hit = app.chrome.tab(atColumn: mouse.column) else {
                        return false
                    }
                    app.select(hit)
                    return true
                }),
            .init([.character("c")], "switch class (● another has something unread)") { $0.openClassPicker() },
            help,
            suspend,
            .init([.character("q"), .key(.control("c"))], "quit") { $0.quit() },
        ])
    }

    /// The tab `step` places after the one shown (before it, when negative), round the ends.
    private static func neighbour(of app: AppModel, _ step: Int) -> AppTab {
        let tabs = app.visibleTabs
        let index = tabs.firstIndex(of: app.tab) ?? 0
        return tabs[(index + step + tabs.count) % tabs.count]
    }
}
