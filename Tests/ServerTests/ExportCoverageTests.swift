import Testing

@testable import Server
@testable import Wire

/// Which pictures an admin's export covers in the audit log: those its latest page listed, once
/// each, for that admin, until the export's empty last page.
@Suite struct ExportCoverageTests {
    static func page(_ ids: [UInt64], erased: Set<UInt64> = []) -> ExportedSnaps {
        ExportedSnaps(
            total: 7,
            snaps: ids.map {
                ExportedSnap(
                    id: $0, feed: "Memes", poster: "bob", postedAt: 1, expiresAt: 2, imageKind: .png, byteCount: 4, width: 1, height: 1,
                    pictureKept: !erased.contains($0), viewers: [])
            })
    }

    @Test("a first page begins an export and covers each picture it listed once, for its admin only")
    func aFirstPageCoversItsPicturesOnce() {
        let coverage = ExportCoverage()
        #expect(coverage.listed(Self.page([1, 2, 3], erased: [3]), after: 0, admin: 10))
        #expect(coverage.covers(1, admin: 10))
        #expect(!coverage.covers(1, admin: 10), "a second look is not covered")
        #expect(!coverage.covers(2, admin: 11), "another admin's look is not")
        #expect(!coverage.covers(3, admin: 10), "an erased picture was not handed over")
        #expect(!coverage.covers(4, admin: 10), "nor a snap the page did not list")
        #expect(coverage.covers(2, admin: 10))
    }

    @Test("the next page continues the export and covers only its own pictures; the empty page ends it")
    func thePagesOfOneExport() {
        let coverage = ExportCoverage()
        #expect(coverage.listed(Self.page([1, 2]), after: 0, admin: 10))
        #expect(!coverage.listed(Self.page([5, 6]), after: 2, admin: 10), "continues")
        #expect(!coverage.covers(1, admin: 10), "the page before is no longer covered")
        #expect(coverage.covers(6, admin: 10))
        #expect(!coverage.listed(Self.page([]), after: 6, admin: 10), "the end of the same export")
        #expect(!coverage.covers(5, admin: 10), "nothing is covered once it ended")
    }

    @Test("a page that does not continue the export begins another: from the start, elsewhere, or by another admin")
    func pagesThatBeginAnotherExport() {
        let coverage = ExportCoverage()
        #expect(coverage.listed(Self.page([1, 2]), after: 0, admin: 10))
        #expect(coverage.listed(Self.page([1, 2]), after: 0, admin: 10), "from the start again")
        #expect(coverage.listed(Self.page([4]), after: 3, admin: 10), "not after the last id listed")
        #expect(coverage.listed(Self.page([5]), after: 4, admin: 11), "another admin on the connection")
        #expect(!coverage.covers(4, admin: 10))
        #expect(coverage.listed(Self.page([]), after: 99, admin: 11), "an empty export is one too")
    }
}
