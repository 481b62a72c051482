/// Which page of search results a New Collection asks for.
///
/// Providers serve at most 4,000 results per search, so the useful pages are
/// `1...PhotoSearchPage.maximumUsefulPage(pages:perPage:)`. With more than one, the new page is
/// drawn uniformly from the others, so the collection is always a different set. With one (or
/// none known, after an empty or failed search) it is page 1 again: overlap is allowed where a
/// place has few photos, and a place that had none may have some now.
enum CollectionPage {
    static func next<G: RandomNumberGenerator>(current: Int, pages: Int, perPage: Int, using generator: inout G) -> Int {
        let last = PhotoSearchPage.maximumUsefulPage(pages: pages, perPage: perPage)
        guard last > 1 else { return 1 }
        guard (1...last).contains(current) else { return Int.random(in: 1...last, using: &generator) }
        // Draw from the other last - 1 pages without retrying: skip over the current one.
        let drawn = Int.random(in: 1...(last - 1), using: &generator)
        return drawn >= current ? drawn + 1 : drawn
    }

    /// The page a New Collection of `album` asks `source` for. Pages counted by another photo
    /// source say nothing about this one, so an album from another starts again at page 1.
    static func next(after album: AlbumRecord, source: String) -> Int {
        album.provider == source ? next(current: album.page, pages: album.pages, perPage: album.perPage) : 1
    }

    /// `next` with the system's random numbers.
    static func next(current: Int, pages: Int, perPage: Int) -> Int {
        var generator = SystemRandomNumberGenerator()
        return next(current: current, pages: pages, perPage: perPage, using: &generator)
    }
}
