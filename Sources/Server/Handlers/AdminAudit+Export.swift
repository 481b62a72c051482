import Wire

/// What the audit log records of an export: its listing's pages and the pictures they cover, with
/// the connection's `ExportCoverage`.

extension AdminAudit where Request == AdminExportSnaps {
    /// An export's listing: the page that begins an export is recorded (how many snaps, and
    /// where they went as far as the server knows: the admin's address); the pages that continue
    /// it are not. A refused page is always recorded.
    static var exportListing: AdminAudit {
        AdminAudit(
            kind: .recorded, readsOnly: { _ in true },
            target: { request, admin, context, outcome in
                let snaps = request.afterID == 0 ? "" : " of the snaps after id \(request.afterID)"
                guard let admin, let exports = context.exports,
                    let page = outcome.reply(ExportedSnaps.self, version: context.protocolVersion)
                else {
                    return "export\(snaps) to \(context.peerAddress)"
                }
                guard exports.listed(page, after: request.afterID, admin: admin.id) else { return nil }
                return request.afterID == 0
                    ? "export of \(page.total) snaps to \(context.peerAddress)"
                    : "export\(snaps) (\(page.total) stored) to \(context.peerAddress)"
            })
    }
}

extension AdminAudit where Request == AdminViewSnap {
    /// A look at any snap's picture: recorded (target `snap 7`), unless it is one the export under
    /// way on the same connection covers.
    static var pictureUnlessExported: AdminAudit {
        AdminAudit(
            kind: .recorded, readsOnly: { _ in true },
            target: { request, admin, context, _ in
                if let admin, context.exports?.covers(request.snapID, admin: admin.id) == true { return nil }
                return "snap \(request.snapID)"
            })
    }
}
