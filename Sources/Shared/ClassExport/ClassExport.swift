import Foundation
import JSON
import Posix
import Wire

/// The class's snaps as plain files, for the end of a term or a parent's evening: one folder per
/// feed holding every kept picture as a file named by its snap id, a `snaps.json` with each
/// snap's poster, times and who opened it when, and an `index.html` gallery (HTML and CSS only,
/// no scripts, opened straight from the file system). `snapshare-server export` fills it from
/// the database, `snapshare admin export` over the protocol; both write it here.
///
/// Pictures are written as they come (one in memory at a time); the listing is kept until
/// `finish` writes the JSON and the gallery and gives the folder its name. Everything is
/// owner-only, like a backup.
public struct ClassExport {
    /// What an export holds once finished.
    public struct Summary: Sendable, Equatable {
        public var feeds: Int
        public var snaps: Int
        public var pictures: Int
        public var pictureBytes: Int
    }

    /// A failure writing the export, with the path concerned.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    public let directory: String
    /// Where the files go until `finish`: a hidden folder beside `directory` (or inside it, when it
    /// is an empty folder already), named `directory` only once complete. An export that stops
    /// half-way (a refusal, a lost connection) leaves nothing behind.
    private let staged: StagedOutput
    private var feeds: [String] = []
    private var folders: [String: String] = [:]
    private var snaps: [String: [(snap: ExportedSnap, picture: String?)]] = [:]
    private var pictureBytes = 0

    /// Starts an export into `directory`, which must not exist or be an empty folder (an export
    /// never mixes with other files), in a folder that exists; it ends owner-only (0700).
    public init(directory: String) throws {
        self.directory = directory
        staged = try StagedOutput.folder(directory, mode: 0o700)
    }

    /// Adds a feed (in the order given; a feed with no snaps still gets its folder).
    public mutating func addFeed(_ name: String) throws {
        _ = try folder(for: name)
    }

    /// Adds one snap and, when its picture is still kept, writes the picture beside its feed's
    /// others as `ID.jpg` or `ID.png`.
    public mutating func add(_ snap: ExportedSnap, picture: [UInt8]?) throws {
        let folder = try folder(for: snap.feed)
        var relative: String?
        if let picture {
            let name = "\(folder)/\(snap.id).\(snap.imageKind == .png ? "png" : "jpg")"
            try write(picture, to: name)
            relative = name
            pictureBytes += picture.count
        }
        snaps[snap.feed, default: []].append((snap, relative))
    }

    /// Writes `snaps.json` and `index.html` (saying it was exported at `exportedAt`, Unix
    /// milliseconds), gives the folder its name; returns what the export holds.
    public func finish(exportedAt: Int64) throws -> Summary {
        try write(Array(try json(exportedAt: exportedAt)), to: "snaps.json")
        try write(Array(html(exportedAt: exportedAt).utf8), to: "index.html")
        try staged.commit()
        let all = snaps.values.joined()
        return Summary(feeds: feeds.count, snaps: all.count, pictures: all.filter { $0.picture != nil }.count, pictureBytes: pictureBytes)
    }

    // MARK: Folders and files

    /// The feed's folder, made on first use: its name with the characters a file system or a
    /// link would trip on replaced, unique among the export's folders.
    private mutating func folder(for feed: String) throws -> String {
        if let known = folders[feed] { return known }
        let base = Self.folderName(feed)
        var name = base
        var suffix = 2
        while folders.values.contains(where: { $0.lowercased() == name.lowercased() }) {
            name = "\(base)-\(suffix)"
            suffix += 1
        }
        let path = staged.temporaryPath + "/" + name
        do { try FileSystem.makeFolder(path, mode: 0o700) } catch {
            throw Failure("cannot create \(directory)/\(name): \(error.reason)")
        }
        folders[feed] = name
        feeds.append(feed)
        return name
    }

    /// A feed name as a folder name: `/`, `\`, `:` and anything before a leading dot become `_`.
    static func folderName(_ feed: String) -> String {
        var name = String(feed.map { "/\\:*?\"<>|".contains($0) ? "_" : $0 })
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return name.isEmpty ? "feed" : name
    }

    private func write(_ bytes: [UInt8], to relative: String) throws {
        do { try StagedOutput.write(bytes, to: staged.temporaryPath + "/" + relative, mode: 0o600) } catch {
            throw Failure("cannot write \(directory)/\(relative): \(error.cause)")
        }
    }

    // MARK: snaps.json

    /// Feeds in the order added, each one's snaps newest first, as the feeds list them.
    private func ordered(_ feed: String) -> [(snap: ExportedSnap, picture: String?)] {
        (snaps[feed] ?? []).sorted { ($0.snap.postedAt, $0.snap.id) > ($1.snap.postedAt, $1.snap.id) }
    }

    private func json(exportedAt: Int64) throws -> Data {
        let document: JSONValue = .object([
            ("exported_at", .string(Self.iso8601(exportedAt))),
            (
                "feeds",
                .array(
                    feeds.map { feed in
                        .object([
                            ("name", .string(feed)),
                            ("folder", .string(folders[feed]!)),
                            (
                                "snaps",
                                .array(
                                    ordered(feed).map { entry in
                                        let snap = entry.snap
                                        return .object([
                                            ("id", .int(Int64(snap.id))),
                                            ("poster", .string(snap.poster)),
                                            ("posted_at", .string(Self.iso8601(snap.postedAt))),
                                            ("expires_at", .string(Self.iso8601(snap.expiresAt))),
                                            ("picture", entry.picture.map { .string($0) } ?? .null),
                                            ("format", .string(snap.imageKind.name)),
                                            ("width", .int(Int64(snap.width))),
                                            ("height", .int(Int64(snap.height))),
                                            ("bytes", .int(Int64(snap.byteCount))),
                                            (
                                                "opened_by",
                                                .array(
                                                    snap.viewers.map {
                                                        .object([
                                                            ("user", .string($0.username)), ("at", .string(Self.iso8601($0.viewedAt))),
                                                        ])
                                                    })
                                            ),
                                            // Only in an export that asked for them: nobody but its poster has seen it.
                                            ("awaiting_approval", .bool(snap.awaitingApproval)),
                                            // Open reports the admins have not resolved yet.
                                            ("reports", .int(Int64(snap.reportCount))),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
        return Data((document.toJSON(pretty: true) + "\n").utf8)
    }

    /// Unix milliseconds as ISO 8601 in UTC, to the millisecond.
    static func iso8601(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            .formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// Unix milliseconds as a short UTC time for people: `2026-12-02 14:05`.
    public static func readable(_ milliseconds: Int64) -> String {
        let text = iso8601(milliseconds)
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5)
    }

    // MARK: index.html

    private func html(exportedAt: Int64) -> String {
        let all = snaps.values.joined()
        let kept = all.filter { $0.picture != nil }.count
        let pending = all.filter { $0.snap.awaitingApproval }.count
        let reported = all.filter { $0.snap.reportCount > 0 }.count
        let marks = (pending > 0 ? " · \(pending) awaiting approval" : "") + (reported > 0 ? " · \(reported) reported" : "")
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Snapshare: the class's snaps</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            <header>
            <h1>The class's snaps</h1>
            <p>Exported \(Self.escaped(Self.readable(exportedAt))) (times in UTC) · \(feeds.count) feed\(feeds.count == 1 ? "" : "s") · \
            \(all.count) snap\(all.count == 1 ? "" : "s") · \(kept) picture\(kept == 1 ? "" : "s") kept\(marks)</p>
            <nav>\(feeds.map { "<a href=\"#\(anchor($0))\">\(Self.escaped($0))</a>" }.joined(separator: " "))</nav>
            </header>

            """
        for feed in feeds {
            let entries = ordered(feed)
            page +=
                "<section id=\"\(anchor(feed))\">\n"
                + "<h2>\(Self.escaped(feed)) <small>\(entries.count) snap\(entries.count == 1 ? "" : "s")</small></h2>\n"
            if entries.isEmpty { page += "<p class=\"empty\">No snaps in this feed.</p>\n" }
            page += "<div class=\"grid\">\n"
            for (snap, picture) in entries {
                let opened =
                    snap.viewers.isEmpty
                    ? "not opened"
                    : "opened by \(snap.viewers.map(\.username).joined(separator: ", "))"
                let title = "Snap \(snap.id) by \(snap.poster)"
                let image =
                    picture.map {
                        "<img src=\"\(Self.link($0))\" alt=\"\(Self.escaped(title))\" width=\"\(snap.width)\" height=\"\(snap.height)\">"
                    } ?? "<div class=\"gone\">picture expired and erased</div>"
                // What the class did not see as it is: a snap awaiting approval, a reported one.
                var marks = ""
                if snap.awaitingApproval {
                    marks += "<br><span class=\"mark pending\">awaiting approval: nobody but its poster saw it</span>"
                }
                if snap.reportCount > 0 {
                    marks +=
                        "<br><span class=\"mark reported\">reported \(snap.reportCount == 1 ? "once" : "\(snap.reportCount) times"), "
                        + "not yet resolved</span>"
                }
                let kind = [snap.awaitingApproval ? "pending" : nil, snap.reportCount > 0 ? "reported" : nil].compactMap { $0 }
                page += """
                    <figure\(kind.isEmpty ? "" : " class=\"\(kind.joined(separator: " "))\"")>\(image)\
                    <figcaption><b>\(Self.escaped(snap.poster))</b> \
                    · \(Self.escaped(Self.readable(snap.postedAt))) · <span class="id">#\(snap.id)</span>\
                    <br><span class="opened">\(Self.escaped(opened))</span>\
                    \(marks)</figcaption></figure>

                    """
            }
            page += "</div>\n</section>\n"
        }
        return page + "</body>\n</html>\n"
    }

    /// The fragment name of a feed's section: its folder's name with only letters, digits and `-`.
    private func anchor(_ feed: String) -> String {
        "feed-"
            + String(
                folders[feed]!.lowercased().unicodeScalars.map {
                    ($0.properties.isAlphabetic || ("0"..."9").contains($0)) && $0.isASCII ? Character($0) : "-"
                })
    }

    /// A relative path as a link: each part percent-encoded (a space is `%20`).
    static func link(_ relative: String) -> String {
        relative.split(separator: "/").map {
            $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;&")))
                ?? String($0)
        }.joined(separator: "/")
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    private static let style = """

        body { font: 14px/1.4 system-ui, sans-serif; margin: 0 1.5rem 1.5rem; color: #1d1d1f; background: #fafafa; }
        header { border-bottom: 1px solid #ddd; margin-bottom: 1rem; }
        nav a { margin-right: 1rem; }
        h2 { margin: 1rem 0 0.5rem; }
        h2 small { font-weight: normal; color: #666; font-size: 0.8em; }
        .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 1rem; }
        figure { margin: 0; background: #fff; border: 1px solid #ddd; border-radius: 6px; overflow: hidden; }
        figure img { display: block; width: 100%; height: 170px; object-fit: contain; background: #222; }
        .gone { height: 170px; display: flex; align-items: center; justify-content: center; background: #eee; color: #777; }
        figcaption { padding: 0.5rem; font-size: 0.9em; }
        .id, .opened, .empty { color: #666; }
        figure.pending { border: 2px dashed #b26b00; }
        figure.reported { border: 2px solid #b00020; }
        .mark { font-weight: bold; }
        .mark.pending { color: #8a5300; }
        .mark.reported { color: #b00020; }

        """
}
