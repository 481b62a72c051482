import Testing

@testable import Server

@Suite("New Collection page")
struct CollectionPageTests {
    @Test("a new page is never the current one and stays within the useful pages")
    func newPageDiffersAndStaysInRange() {
        var generator = SystemRandomNumberGenerator()
        for current in 1...5 {
            for _ in 0..<200 {
                let page = CollectionPage.next(current: current, pages: 5, perPage: 21, using: &generator)
                #expect(page != current && (1...5).contains(page))
            }
        }
    }

    @Test("every other page can be drawn")
    func everyOtherPageIsReachable() {
        var generator = SystemRandomNumberGenerator()
        var seen = Set<Int>()
        for _ in 0..<2_000 { seen.insert(CollectionPage.next(current: 2, pages: 4, perPage: 21, using: &generator)) }
        #expect(seen == [1, 3, 4])
    }

    @Test("pages past the provider's 4,000-result cap are never asked for")
    func resultCapIsRespected() {
        var generator = SystemRandomNumberGenerator()
        // 4000 / 21 = 190 useful pages out of 1,000 reported.
        for _ in 0..<500 { #expect(CollectionPage.next(current: 1, pages: 1_000, perPage: 21, using: &generator) <= 190) }
    }

    @Test("with one page or none known, the new collection is page 1 again")
    func singlePageRepeats() {
        var generator = SystemRandomNumberGenerator()
        #expect(CollectionPage.next(current: 1, pages: 1, perPage: 21, using: &generator) == 1)
        #expect(CollectionPage.next(current: 1, pages: 0, perPage: 21, using: &generator) == 1)
    }
}
