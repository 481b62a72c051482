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

extension AdminAudit where Request == AdminExportSnaps {
    /// An export's listing: the page that begins an export is recorded (how many snaps, and
    /// where they went as far as the server knows: the admin's address); the pages that continue
    /// it are not. A refused page is always recorded.
    static var exportListing: AdminAudit {
        AdminAudit(kind: .recorded, readsOnly: { _ in true }) { request, context, outcome in
            let snaps = request.afterID == 0 ? "" : " of the snaps after id \(request.afterID)"
            guard let admin = context.user, let exports = context.exports,
                  let page = outcome.reply(ExportedSnaps.self, version: context.protocolVersion) else {
                return "export\(snaps) to \(context.peerAddress)"
            }
            guard exports.listed(page, after: request.afterID, admin: admin.id) else { return nil }
            return request.afterID == 0 ? "export of \(page.total) snaps to \(context.peerAddress)"
                                        : "export\(snaps) (\(page.total) stored) to \(context.peerAddress)"
        }
    }
}

extension AdminAudit where Request == AdminViewSnap {
    /// A look at any snap's picture: recorded (target `snap 7`), unless it is one the export under
    /// way on the same connection covers.
    static var pictureUnlessExported: AdminAudit {
        AdminAudit(kind: .recorded, readsOnly: { _ in true }) { request, context, _ in
            if let admin = context.user, admin.isAdmin, context.exports?.covers(request.snapID, admin: admin.id) == true { return nil }
            return "snap \(request.snapID)"
        }
    }
}
