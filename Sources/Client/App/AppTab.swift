/// A tab of the app, in the tab bar's order.
enum AppTab: Int, CaseIterable {
    case post, feeds, map, vacations, movies
    /// Admins only: snaps awaiting approval and reported snaps.
    case reports

    /// The digit that chooses it, as the tab bar shows.
    var digit: Character { Character(String(rawValue + 1)) }

    var title: String {
        switch self {
        case .post: "Post"
        case .feeds: "Feeds"
        case .map: "Map"
        case .vacations: "Vacations"
        case .movies: "Movies"
        case .reports: "Reports"
        }
    }

    /// How the tab bar shows it: " 2 Feeds ".
    var label: String { " \(rawValue + 1) \(title) " }
}

/// Every tab's screen, made once with the app. Which screen a tab shows is the one switch in
/// `subscript(_:)`, which the compiler holds to every case of `AppTab`: a new tab without a
/// screen does not build.
struct TabScreens {
    let post: PostScreen
    let feeds: FeedsScreen
    let map: MapScreen
    let vacations: VacationsScreen
    let movies: MoviesScreen
    let reports: ReportsScreen

    init(app: AppModel) {
        post = PostScreen(app: app)
        feeds = FeedsScreen(app: app)
        map = MapScreen(app: app)
        vacations = VacationsScreen(app: app)
        movies = MoviesScreen(app: app)
        reports = ReportsScreen(app: app)
    }

    subscript(tab: AppTab) -> any AppScreen {
        switch tab {
        case .post: post
        case .feeds: feeds
        case .map: map
        case .vacations: vacations
        case .movies: movies
        case .reports: reports
        }
    }

    /// Every tab's screen, in the tab bar's order.
    var all: [any AppScreen] { AppTab.allCases.map { self[$0] } }
}
