import Synchronization
import Wire

/// The export an admin runs on one connection (`snapshare admin export`), as the audit log sees
/// it: one action, however many pictures it fetches. The AdminExportSnaps page that begins an
/// export is its one entry; the pages that continue it are not recorded, and the AdminViewSnap of
/// each snap the latest page listed with its picture is covered by that entry, once. Any other
/// look at a picture is recorded as usual: a second look at the same snap, a snap the page did
/// not list, another admin's, one on another connection, one after the export's empty last page.
///
/// Why per connection and per page: the pictures an export covers are exactly those its listing
/// handed over, so the export's entry says no less than what the admin saw; and the memory it
/// holds is one page's ids (at most 200).
final class ExportCoverage: Sendable {
    private struct Export {
        /// The admin whose export it is.
        var admin: Int64
        /// The `after_id` of the page that continues it: the last id listed.
        var next: UInt64
        /// The snaps of the latest page whose picture may still be fetched under the export.
        var pictures: Set<UInt64>
    }

    private let export = Mutex<Export?>(nil)

    /// Notes a page of `page` answered to `admin` for `after`; true when the page begins an export
    /// (it is recorded), false when it continues the one under way. An empty page ends the export.
    func listed(_ page: ExportedSnaps, after: UInt64, admin: Int64) -> Bool {
        export.withLock { export in
            let continues = after != 0 && export?.admin == admin && export?.next == after
            if let last = page.snaps.last {
                export = Export(admin: admin, next: last.id, pictures: Set(page.snaps.filter(\.pictureKept).map(\.id)))
            } else {
                export = nil
            }
            return !continues
        }
    }

    /// Whether a look by `admin` at the picture of `snapID` is one the export under way covers;
    /// each listed picture is covered once.
    func covers(_ snapID: UInt64, admin: Int64) -> Bool {
        export.withLock { export in
            guard export?.admin == admin else { return false }
            return export?.pictures.remove(snapID) != nil
        }
    }
}
