import Foundation

/// One favorite movie as stored: the title as the user typed it, the genre, and ticket sales
/// in whole dollars (never negative; at most `Int64.max`, SQLite's largest integer).
public struct MovieRecord: Sendable, Equatable {
    public var title: String
    public var genre: String
    public var sales: Int64

    public init(title: String, genre: String, sales: Int64) {
        self.title = title
        self.genre = genre
        self.sales = sales
    }

    /// The key titles are unique and sorted by: lower case after canonical composition, so a
    /// title typed with a combining accent and one typed precomposed are the same movie.
    public static func titleKey(_ title: String) -> String {
        title.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }
}
