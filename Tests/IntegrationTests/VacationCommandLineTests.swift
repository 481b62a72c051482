import Client
import Foundation
import TestSupport
import Testing
import Wire

/// Virtual Vacations from the command line: photos come from a real server's albums over TLS,
/// each vacation is a real SQLite file in the traveller's state folder.
@Suite("Vacations from the command line")
struct VacationCommandLineTests {
    /// A user with their own state folder, registered on `server`, with a session for setting
    /// up pins the way another client would.
    final class Traveller {
        let home = TemporaryDirectory("snapshare-vacation-home")
        let server: TestServer
        let session: SnapshareSession

        init(_ name: String, server: TestServer) throws {
            self.server = server
            session = try SnapshareSession(settings: server.settings(), state: ClientState(directory: home.path)) { _ in }
            _ = try session.register(username: name, password: "\(name) password 1", classCode: server.configuration.classCode ?? "")
        }

        var environment: [String: String] {
            // A true-colour terminal's environment, whatever the test runner's is.
            [
                "SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath,
                "COLORTERM": "truecolor", "TERM": "xterm-256color",
            ]
        }

        func run(_ arguments: [String]) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment)
        }

        func run(_ arguments: String...) throws -> Subprocess.Result { try run(arguments) }

        /// The JSON rows a listing command prints.
        func rows(_ arguments: String...) throws -> [[String: Any]] {
            let result = try run(arguments)
            guard result.status == 0 else { throw ProcessError("\(arguments): exit \(result.status): \(result.stderr)") }
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stdout)")
        }

        /// The ready photos of a new pin, once the server has finished downloading its album.
        func readyPhotos(latitude: Double, longitude: Double) throws -> [PhotoInfo] {
            let pin = try session.addPin(latitude: latitude, longitude: longitude)
            let album = try PinRequests(session: session).settled(pin.id)
            guard album.state == .ready else { throw ProcessError("album of pin \(pin.id) ended \(album.state.name): \(album.error)") }
            return album.photos.filter { $0.state == .ready }
        }
    }

    /// What the tags of `photos` must list, worked out here independently of the client:
    /// "Tag=count", most often seen first, ties by name, machine tags left out.
    static func expectedTags(_ photos: [PhotoInfo]) -> [String] {
        var counts: [String: Int] = [:]
        for photo in photos {
            let tags = Set(photo.tags.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { $0.lowercased() })
            for tag in tags where !tag.contains(":") { counts[tag, default: 0] += 1 }
        }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
    }

    /// Places in order of first appearance with their photo counts, as the itinerary must list them.
    static func expectedItinerary(_ photos: [PhotoInfo]) -> [String] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for photo in photos {
            let place = photo.place.isEmpty ? "Unknown place" : photo.place
            if counts[place] == nil { order.append(place) }
            counts[place, default: 0] += 1
        }
        return order.map { "\($0)=\(counts[$0]!)" }
    }

    static func tagRows(_ rows: [[String: Any]]) -> [String] { rows.map { "\($0["tag"] as? String ?? "?")=\($0["count"] as? Int ?? -1)" } }
    static func placeRows(_ rows: [[String: Any]]) -> [String] {
        rows.map { "\($0["place"] as? String ?? "?")=\($0["photos"] as? Int ?? -1)" }
    }

    @Test("a traveller visits album photos into two vacations and browses them with the server stopped")
    func visitAndBrowseOffline() throws {
        let server = try TestServer()
        let ann = try Traveller("ann", server: server)
        let paris = try ann.readyPhotos(latitude: 48.8566, longitude: 2.3522)
        let rome = try ann.readyPhotos(latitude: 41.9028, longitude: 12.4964)
        try #require(paris.count >= 3 && rome.count >= 2, "the built-in provider has photos for Paris and Rome")

        let before = try ann.rows("vacation", "list", "--json")
        #expect(before.map { $0["name"] as? String } == ["My Vacation"])
        #expect(before.first?["created"] as? Bool == false)
        #expect(try ann.run("vacation", "new", "Italy").status == 0)

        // One photo with machine tags (`geo:lat=…`), which must never show up as tags.
        let machineTagged = try #require(paris.first { $0.tags.contains(":") }, "the built-in provider adds geo: tags to some photos")
        let others = paris.filter { $0.id != machineTagged.id }
        let defaultVisits = [others[0], machineTagged, rome[0], others[1]]
        for photo in defaultVisits {
            let visit = try ann.run("visit", "\(photo.id)")
            #expect(visit.status == 0, "\(visit.stderr)")
            #expect(visit.stdout.contains("Visited photo \(photo.id)"))
        }
        for photo in [rome[0], rome[1]] {
            #expect(try ann.run("visit", "\(photo.id)", "--vacation", "italy").status == 0)
        }
        let again = try ann.run("visit", "\(others[0].id)")
        #expect(again.status == 0)
        #expect(again.stdout.contains("already in My Vacation"))

        let itinerary = try ann.rows("itinerary", "--json")
        #expect(Self.placeRows(itinerary) == Self.expectedItinerary(defaultVisits))
        #expect(itinerary.allSatisfy { ($0["first_visited_at"] as? String)?.hasSuffix("Z") == true })
        let tags = try ann.rows("tags", "--json")
        #expect(Self.tagRows(tags) == Self.expectedTags(defaultVisits))
        #expect(tags.allSatisfy { !(($0["tag"] as? String) ?? ":").contains(":") })
        #expect(Self.placeRows(try ann.rows("itinerary", "--vacation", "Italy", "--json")) == Self.expectedItinerary([rome[0], rome[1]]))
        let listed = try ann.rows("vacation", "list", "--json")
        #expect(listed.map { $0["name"] as? String } == ["Italy", "My Vacation"])
        #expect(listed.map { $0["photos"] as? Int } == [2, 4])

        server.stop()
        // Everything below reads the vacation files alone.
        #expect(Self.placeRows(try ann.rows("itinerary", "--json")) == Self.expectedItinerary(defaultVisits))
        #expect(Self.tagRows(try ann.rows("tags", "--json")) == Self.expectedTags(defaultVisits))
        let firstPlace = try #require(itinerary.first?["place"] as? String)
        let atPlace = try ann.rows("itinerary", firstPlace, "--json")
        let expectedAtPlace = defaultVisits.filter { ($0.place.isEmpty ? "Unknown place" : $0.place) == firstPlace }
            .map { $0.title.isEmpty ? "Unknown" : $0.title }.sorted { $0.lowercased() < $1.lowercased() }
        #expect(atPlace.map { $0["title"] as? String ?? "" }.map { $0.lowercased() } == expectedAtPlace.map { $0.lowercased() })
        if let firstTag = tags.first?["tag"] as? String {
            let tagged = try ann.rows("tags", firstTag.lowercased(), "--json")
            #expect(tagged.count == tags.first?["count"] as? Int)
            let searched = try ann.rows("tags", "--search", String(firstTag.uppercased().prefix(2)), "--json")
            #expect(searched.contains { $0["tag"] as? String == firstTag })
        }
        let text = try ann.run("itinerary")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Itinerary of My Vacation"))
        let shown = try ann.run("vacation", "show", "\(others[0].id)")
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("\u{1B}[0;38;2;"), "the photo is drawn from the file")
        #expect(shown.stdout.contains("photo \(others[0].id) "))
        let offline = try ann.run("visit", "\(rome[1].id)")
        #expect(offline.status == 3, "a new visit needs the server: \(offline.stderr)")
    }

    @Test("unvisiting lowers tag counts and drops places and tags left without photos")
    func unvisitFromTheCommandLine() throws {
        let server = try TestServer()
        let bea = try Traveller("bea", server: server)
        let photos = Array(try bea.readyPhotos(latitude: 48.8566, longitude: 2.3522).prefix(3))
        let kyoto = Array(try bea.readyPhotos(latitude: 35.0116, longitude: 135.7681).prefix(1))
        try #require(photos.count == 3 && kyoto.count == 1)
        let visited = photos + kyoto
        for photo in visited { #expect(try bea.run("visit", "\(photo.id)").status == 0) }
        #expect(Self.tagRows(try bea.rows("tags", "--json")) == Self.expectedTags(visited))

        let removed = try bea.run("unvisit", "\(photos[1].id)")
        #expect(removed.status == 0, "\(removed.stderr)")
        let remaining = [photos[0], photos[2], kyoto[0]]
        #expect(Self.tagRows(try bea.rows("tags", "--json")) == Self.expectedTags(remaining))
        #expect(Self.placeRows(try bea.rows("itinerary", "--json")) == Self.expectedItinerary(remaining))
        #expect(try bea.run("unvisit", "\(photos[1].id)").status == 5, "already gone")

        // Kyoto's only photo goes: its place leaves the itinerary; visited again, it is last.
        #expect(try bea.run("unvisit", "\(kyoto[0].id)").status == 0)
        let kyotoPlace = kyoto[0].place.isEmpty ? "Unknown place" : kyoto[0].place
        let withoutKyoto = try bea.rows("itinerary", "--json").map { $0["place"] as? String ?? "" }
        if !photos.contains(where: { $0.place == kyoto[0].place }) {
            #expect(!withoutKyoto.contains(kyotoPlace))
        }
        #expect(try bea.run("visit", "\(photos[1].id)").status == 0)
        #expect(try bea.run("visit", "\(kyoto[0].id)").status == 0)
        let places = try bea.rows("itinerary", "--json").map { $0["place"] as? String ?? "" }
        #expect(places.last == kyotoPlace)
    }

    @Test("two snapshare processes visiting one vacation at once lose nothing")
    func concurrentVisitsFromTwoProcesses() throws {
        let server = try TestServer()
        let cyd = try Traveller("cyd", server: server)
        let photos = try cyd.readyPhotos(latitude: 48.8566, longitude: 2.3522) + cyd.readyPhotos(latitude: 41.9028, longitude: 12.4964)
        try #require(photos.count >= 8)
        let halves = [
            photos.enumerated().filter { $0.offset % 2 == 0 }.map(\.element),
            photos.enumerated().filter { $0.offset % 2 == 1 }.map(\.element),
        ]
        let failures = LockedFailures()
        let environment = cyd.environment
        let ids = halves.map { $0.map(\.id) }
        // Both start on a vacation that does not exist yet, so its creation races too.
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for id in ids[worker] {
                do {
                    let result = try Subprocess.run("snapshare", ["visit", "\(id)", "--json"], environment: environment)
                    if result.status != 0 { failures.add("visit \(id): \(result.stderr)") }
                } catch {
                    failures.add("visit \(id): \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        let listed = try cyd.rows("vacation", "list", "--json")
        #expect(listed.first?["photos"] as? Int == photos.count)
        #expect(Self.tagRows(try cyd.rows("tags", "--json")) == Self.expectedTags(photos))
        let counted = try cyd.rows("itinerary", "--json").reduce(0) { $0 + ($1["photos"] as? Int ?? 0) }
        #expect(counted == photos.count)
    }

    @Test("vacation names are checked, duplicates refused, and missing vacations are not found")
    func namesAndErrors() throws {
        let server = try TestServer()
        let dee = try Traveller("dee", server: server)
        #expect(try dee.run("vacation", "new", "Road Trip").status == 0)
        let duplicate = try dee.run("vacation", "new", "road trip")
        #expect(duplicate.status == 8)
        #expect(duplicate.stderr.contains("already exists"))
        for bad in ["../up", "a/b", ".hidden", "   ", "tab\there", String(repeating: "v", count: 65)] {
            let result = try dee.run("vacation", "new", bad)
            #expect(result.status == 2, "\(bad.debugDescription): \(result.stderr)")
            #expect(result.stderr.contains("cannot name a vacation"), "\(result.stderr)")
        }
        let vacations = try FileManager.default.contentsOfDirectory(atPath: dee.home.path + "/vacations")
        #expect(vacations.filter { $0.hasSuffix(".vacation") } == ["Road Trip.vacation"])
        let nowhere = try dee.run("itinerary", "--vacation", "Nowhere")
        #expect(nowhere.status == 5)
        #expect(
            nowhere.stderr.contains(#"no vacation named "Nowhere"; create it with `snapshare vacation new "Nowhere"`"#), "\(nowhere.stderr)"
        )
        #expect(try dee.run("visit", "1", "--vacation", "Nowhere").status == 5)
        let removed = try dee.run("vacation", "rm", "Nowhere")
        #expect(removed.status == 5)
        #expect(removed.stderr.contains("see `snapshare vacation list`"), "\(removed.stderr)")
        #expect(try dee.run("visit", "999999").status == 5, "no such photo on the server")
        #expect(try dee.run("visit", "zero").status == 2)
        #expect(try dee.run("vacation", "rm", "ROAD TRIP").status == 2, "no terminal to ask on, and no --yes")
        #expect(try dee.run("vacation", "rm", "ROAD TRIP", "--yes").status == 0)
        #expect(try dee.rows("vacation", "list", "--json").map { $0["name"] as? String } == ["My Vacation"])
    }

    @Test("a damaged or foreign file in the folder is named in a warning and the rest is listed")
    func damagedFilesAreWarnings() throws {
        let server = try TestServer()
        let eve = try Traveller("eve", server: server)
        #expect(try eve.run("vacation", "new", "Alps").status == 0)
        let folder = eve.home.path + "/vacations"
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: folder + "/Broken.vacation"))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: folder + "/readme.txt"))
        let list = try eve.run("vacation", "list")
        #expect(list.status == 0)
        #expect(list.stdout.contains("Alps"))
        #expect(!list.stdout.contains("Broken"))
        #expect(list.stderr.contains("warning: ") && list.stderr.contains("Broken.vacation"))
        #expect(list.stderr.contains("readme.txt"))
        let opened = try eve.run("itinerary", "--vacation", "Broken")
        #expect(opened.status == 1)
        #expect(opened.stderr.contains("Broken.vacation"))
    }

    @Test("every vacation command has help")
    func help() throws {
        for command in [
            ["vacation"], ["vacation", "list"], ["vacation", "new"], ["vacation", "rm"], ["vacation", "show"],
            ["visit"], ["unvisit"], ["itinerary"], ["tags"],
        ] {
            let result = try Subprocess.run("snapshare", command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.contains("Usage"), "\(command)")
        }
    }
}

/// Failures collected from several threads.
final class LockedFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [String] = []
    func add(_ failure: String) {
        lock.lock()
        failures.append(failure)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return failures
    }
}
