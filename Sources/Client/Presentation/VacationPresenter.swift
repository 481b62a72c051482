import JSON

/// How Virtual Vacations look in text and in JSON.
enum VacationPresenter {
    /// ` --vacation "NAME"` for a command that should act on vacation `name`, or nothing for the
    /// default vacation.
    static func option(_ name: String) -> String {
        VacationName.same(name, VacationName.defaultName) ? "" : " --vacation \"\(PrintableText.clean(name))\""
    }

    static func json(_ vacation: VacationSummary) -> JSONValue {
        .object([
            ("name", .string(vacation.name)), ("photos", .int(Int64(vacation.photos))),
            ("places", .int(Int64(vacation.places))), ("tags", .int(Int64(vacation.tags))),
            ("created", .bool(vacation.exists)),
        ])
    }

    /// `{"place": …, "first_visited_at": …, "photos": N}`.
    static func json(_ place: VacationPlace) -> JSONValue {
        .object([
            ("place", .string(place.name)), ("first_visited_at", .string(Timestamp.iso8601(place.firstVisited))),
            ("photos", .int(Int64(place.photoCount))),
        ])
    }

    /// `{"tag": "beach", "count": N}`: the tag as stored (text shows it capitalized).
    static func json(_ tag: VacationTag) -> JSONValue {
        .object([("tag", .string(tag.name)), ("count", .int(Int64(tag.count)))])
    }

    static func json(_ photo: VacationPhoto) -> JSONValue {
        .object([
            ("id", .int(Int64(bitPattern: photo.photoID))), ("title", .string(photo.displayTitle)),
            ("place", .string(photo.place)), ("tags", .array(photo.tags.map { .string($0) })),
            ("latitude", .double(photo.latitude)), ("longitude", .double(photo.longitude)),
            ("width", .int(Int64(photo.width))), ("height", .int(Int64(photo.height))),
            ("visited_at", .string(Timestamp.iso8601(photo.visitedAt))), ("server", .string(photo.origin)),
        ])
    }

    static func table(_ vacations: [VacationSummary]) -> String {
        var table = TextTable(columns: [
            .init("VACATION"), .init("PHOTOS", alignment: .right),
            .init("PLACES", alignment: .right), .init("TAGS", alignment: .right),
        ])
        for vacation in vacations {
            table.append([vacation.name, "\(vacation.photos)", "\(vacation.places)", "\(vacation.tags)"])
        }
        return table.render()
    }

    static func table(_ places: [VacationPlace], now: Int64) -> String {
        var table = TextTable(columns: [.init("PLACE"), .init("FIRST VISITED"), .init("PHOTOS", alignment: .right)])
        for place in places {
            table.append([place.name, TimeAgo.describe(place.firstVisited, now: now), "\(place.photoCount)"])
        }
        return table.render()
    }

    static func table(_ tags: [VacationTag]) -> String {
        var table = TextTable(columns: [.init("TAG"), .init("PHOTOS", alignment: .right)])
        for tag in tags { table.append([tag.displayName, "\(tag.count)"]) }
        return table.render()
    }

    /// Photos with the column that is not already the listing's subject: tags for a place,
    /// the place for a tag.
    static func table(_ photos: [VacationPhoto], showPlace: Bool) -> String {
        var table = TextTable(columns: [.init("PHOTO", alignment: .right), .init("TITLE"), .init(showPlace ? "PLACE" : "TAGS")])
        for photo in photos {
            let last = showPlace ? photo.place : photo.tags.map(VacationTag.display).joined(separator: " ")
            table.append(["\(photo.photoID)", photo.displayTitle, last])
        }
        return table.render()
    }
}
