import Foundation

/// One favorite movie as stored: the title as the user typed it, the genre, and ticket sales
/// in whole dollars (never negative; at most `Int64.max`, SQLite's largest integer).
package struct MovieRecord: Sendable, Equatable {
    var title: String
    var genre: String
    var sales: Int64

    /// The key titles are unique and sorted by: lower case after canonical composition, so a
    /// title typed with a combining accent and one typed precomposed are the same movie.
    static func titleKey(_ title: String) -> String {
        title.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }
}
