import ClassExport
import Foundation
import Wire

/// `snapshare-server export --to DIR`: the class's snaps from the database as files (see
/// `ClassExport`), read while the server runs, a page at a time; no view is spent.
enum ExportCommand {
    /// Exports the class's snaps from `store` into `directory` (snaps awaiting approval only with
    /// `includePending`); returns what was written.
    static func run(
        from store: SQLStore, classID: Int64, to directory: String, now: Int64, includePending: Bool = false,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> ClassExport.Summary {
        var export = try ClassExport(directory: directory)
        for feed in try store.feedSummaries(classID: classID, viewerID: 0, now: now) { try export.addFeed(feed.name) }
        var after: Int64 = 0
        var done = 0
        while true {
            let page = try store.exportedSnaps(
                classID: classID, afterID: after, limit: ClassDataHandlers.exportPage, includePending: includePending)
            guard let last = page.snaps.last else { break }
            for snap in page.snaps {
                var picture: [UInt8]?
                if snap.pictureKept {
                    do {
                        picture = try store.snapPicture(id: Int64(snap.id), classID: classID)
                    } catch let error as StoreError where error.kind == .expired || error.kind == .notFound {
                        // Erased or deleted since the page was read: recorded without its picture.
                    }
                }
                try export.add(snap, picture: picture)
                done += 1
                progress(done, max(done, page.total))
            }
            after = Int64(last.id)
        }
        return try export.finish(exportedAt: now)
    }
}
