import CommandLineParsing
import Foundation
import Server
import TestSupport
import Testing
import Wire

/// `snapshare pin`, `pins`, `album`, `photo`, `random` and `map`, run as a person would run them
/// against a real server with the built-in (offline) photo source.
@Suite struct PinCommandLineTests {
    struct Traveller {
        let home = TemporaryDirectory("snapshare-pin-home")
        let server: TestServer
        var environment: [String: String] {
            // A true-colour terminal's environment, whatever the test runner's is.
            [
                "SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath,
                "COLORTERM": "truecolor", "TERM": "xterm-256color",
            ]
        }

        init(_ name: String, server: TestServer) throws {
            self.server = server
            let registered = try run("register", name, "--password-stdin", stdin: "\(name) password 1\n")
            #expect(registered.status == 0, "\(registered.stderr)")
        }

        func run(_ arguments: String..., stdin: String? = nil) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
        }

        /// Runs with `--json` appended and parses standard output.
        func json(_ arguments: String...) throws -> Any {
            let result = try Subprocess.run("snapshare", arguments + ["--json"], environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
        }

        func object(_ arguments: String...) throws -> [String: Any] {
            let result = try Subprocess.run("snapshare", arguments + ["--json"], environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        }
    }

    @Test func helpIsAvailableOnEveryPinCommand() throws {
        for command in [
            ["pin"], ["pin", "add"], ["pin", "rm"], ["pins"], ["album"], ["photo"], ["photo", "show"], ["photo", "rm"],
            ["random"], ["map"],
        ] {
            let result = try Subprocess.run("snapshare", command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.contains("Usage: snapshare \(command.joined(separator: " "))"), "\(command): \(result.stdout)")
        }
    }

    @Test func pinsAreDroppedListedAndRemovedWithNegativeCoordinates() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let sydney = try alice.object("pin", "add", "-33.87", "151.21")
        let id = try #require(sydney["id"] as? Int)
        #expect(sydney["latitude"] as? Double == -33.87)
        #expect(sydney["longitude"] as? Double == 151.21)
        #expect(["downloading", "ready", "empty", "failed"].contains(sydney["state"] as? String))

        let text = try alice.run("pin", "add", "42.28", "-83.74")
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Dropped pin"))
        #expect(text.stdout.contains("42.28, -83.74"))

        let pins = try #require(try alice.json("pins") as? [[String: Any]])
        #expect(pins.count == 2)
        #expect(pins.first?["id"] as? Int == id)
        #expect(pins.allSatisfy { $0["expected"] is Int && $0["done"] is Int && $0["state"] is String })
        let table = try alice.run("pins")
        #expect(table.stdout.contains("-33.87") && table.stdout.contains("151.21") && table.stdout.contains("ALBUM"))

        let removed = try alice.object("pin", "rm", "\(id)")
        #expect(removed["deleted"] as? Bool == true)
        #expect((try alice.json("pins") as? [[String: Any]])?.count == 1)
        #expect(try alice.run("pin", "rm", "\(id)").status == 5, "already gone")
    }

    @Test func badCoordinatesAreRefusedWithTheirExitCodes() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let outOfRange = try alice.run("pin", "add", "95", "0")
        #expect(outOfRange.status == 8)
        #expect(outOfRange.stderr.contains("between -90 and 90"))
        #expect(try alice.run("pin", "add", "0", "-180.5").status == 8)
        #expect(try alice.run("pin", "add", "abc", "0").status == 2)
        #expect(try alice.run("pin", "add", "nan", "0").status == 2)
        let comma = try alice.run("pin", "add", "42,28", "10")
        #expect(comma.status == 2)
        #expect(comma.stderr.contains("dot"))
        #expect(try alice.run("pin", "add", "1").status == 2)
        #expect(try alice.run("pin", "rm", "zero").status == 2)
        #expect((try alice.json("pins") as? [[String: Any]])?.isEmpty == true, "nothing was dropped")
    }

    @Test func anAlbumIsWaitedForAndItsPhotosAreDrawnAndRemoved() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let pin = try alice.object("pin", "add", "42.28", "-83.74")
        let pinID = try #require(pin["id"] as? Int)

        let album = try alice.object("album", "\(pinID)", "--wait")
        #expect(album["state"] as? String == "ready")
        for key in ["state", "expected", "done", "error", "photos"] { #expect(album[key] != nil, "\(key)") }
        let photos = try #require(album["photos"] as? [[String: Any]])
        #expect(!photos.isEmpty)
        #expect(album["done"] as? Int == album["expected"] as? Int)
        for photo in photos {
            for key in ["id", "title", "place", "tags", "state", "latitude", "longitude"] { #expect(photo[key] != nil, "\(key)") }
        }

        let text = try alice.run("album", "\(pinID)")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Album of pin \(pinID): ready"))
        #expect(text.stdout.contains("[■]"))
        #expect(text.stdout.contains(photos[0]["title"] as? String ?? "?"))

        let photoID = try #require(photos.first { $0["state"] as? String == "ready" }?["id"] as? Int)
        let shown = try alice.run("photo", "show", "\(photoID)")
        #expect(shown.status == 0, "\(shown.stderr)")
        let last = shown.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.wholeMatch(of: /photo \d+ \d+x\d+ \d+ sha256:[0-9a-f]{64}/) != nil, "\(last)")
        #expect(last.hasPrefix("photo \(photoID) "))
        #expect(shown.stdout.contains("\u{1B}[0;38;2;"), "the drawing uses true colour")
        let thumbnail = try alice.object("photo", "show", "\(photoID)", "--thumbnail")
        #expect(thumbnail["variant"] as? String == "thumbnail")
        #expect((thumbnail["sha256"] as? String)?.count == 64)

        #expect(try alice.run("photo", "rm", "\(photoID)").status == 0)
        #expect(try alice.run("photo", "show", "\(photoID)").status == 5)
        let after = try alice.object("album", "\(pinID)")
        let remaining = try #require(after["photos"] as? [[String: Any]])
        #expect(remaining.count == photos.count - 1)
        #expect(!remaining.contains { $0["id"] as? Int == photoID })
        let positions = remaining.compactMap { $0["position"] as? Int }
        #expect(positions == positions.sorted(), "the rest keep their order")

        let bob = try Traveller("bob", server: server)
        #expect(try bob.run("album", "\(pinID)").status == 5, "another user's pin is not found")
        #expect(try bob.run("photo", "show", "\(remaining[0]["id"] as? Int ?? 0)").status == 5)
        #expect(try bob.run("pin", "rm", "\(pinID)").status == 5)
    }

    @Test func aNewCollectionReplacesTheAlbum() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let pinID = try #require(try alice.object("pin", "add", "48.8584", "2.2945")["id"] as? Int)
        let first = try alice.object("album", "\(pinID)", "--wait")
        #expect(first["state"] as? String == "ready")
        let renewed = try alice.object("album", "new", "\(pinID)", "--wait")
        #expect(renewed["state"] as? String == "ready")
        let before = Set((first["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
        let after = Set((renewed["photos"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int })
        #expect(!after.isEmpty && before.isDisjoint(with: after), "new photo ids")
        #expect(try alice.run("album", "new").status == 2)
        #expect(try alice.run("album").status == 2)
        #expect(try alice.run("album", "new", "999999").status == 5)
    }

    @Test func aNewCollectionWhileDownloadingIsRefusedWithExitEight() throws {
        let server = try TestServer { $0.metricsAddress = HostPort(host: "127.0.0.1", port: 0) }
        let metricsPort = try #require(server.server.metricsPort)
        func albumRequests() throws -> Double {
            PlainHTTP.sample(
                try PlainHTTP.get(port: metricsPort, "/metrics").body, #"snapshare_requests_total{type="GetAlbum",result="ok"}"#) ?? 0
        }
        // Hold the downloads, so the album is certainly still downloading.
        server.server.albums.pauseFetches()
        let alice = try Traveller("alice", server: server)
        let pin = try alice.object("pin", "add", "48.8584", "2.2945")
        let pinID = try #require(pin["id"] as? Int)
        #expect(pin["state"] as? String == "downloading")
        let waiting = try alice.object("album", "\(pinID)")
        let slots = try #require(waiting["photos"] as? [[String: Any]])
        #expect(waiting["state"] as? String == "downloading")
        #expect(slots.count <= waiting["expected"] as? Int ?? 0)
        let text = try alice.run("album", "\(pinID)")
        #expect(text.stdout.contains("downloading 0/"))
        #expect(text.stdout.contains("[…]"), "one placeholder per expected photo")

        let busy = try alice.run("album", "new", "\(pinID)")
        #expect(busy.status == 8)
        #expect(busy.stderr.contains("still downloading; try again when it is ready"), "\(busy.stderr)")
        let photoID = try #require(slots.first?["id"] as? Int)
        let pending = try alice.run("photo", "show", "\(photoID)")
        #expect(pending.status == 5 && pending.stderr.contains("still downloading"), "\(pending.stderr)")

        // Ctrl-C stops the waiting, says the download goes on, and exits 130. The watcher catches
        // it from its first poll on: once the server has had its second request for the album.
        let asked = try albumRequests()
        let watcher = try Subprocess.start(
            "snapshare", ["album", "\(pinID)", "--wait"], environment: alice.environment,
            mergingStandardError: true)
        try eventually("the watcher to ask for the album a second time", every: 0.05) { try albumRequests() >= asked + 2 }
        kill(watcher.process.processIdentifier, SIGINT)
        var said: [String] = []
        while let line = watcher.lines.next(timeout: 10) { said.append(line) }
        watcher.process.waitUntilExit()
        #expect(watcher.process.terminationStatus == 130)
        #expect(said.contains { $0.contains("keeps downloading on the server") }, "\(said)")

        server.server.albums.resumeFetches()
        #expect(try alice.object("album", "\(pinID)", "--wait")["state"] as? String == "ready")
        #expect(try alice.run("album", "new", "\(pinID)").status == 0)
    }

    @Test func aFailedAlbumShowsTheProvidersErrorAndExitsOne() throws {
        let flickr = try FakeFlickrServer()
        defer { flickr.stop() }
        let server = try TestServer { $0.photoSource = .flickr(key: "not-the-key", endpoint: flickr.endpoint) }
        let alice = try Traveller("alice", server: server)
        let pinID = try #require(try alice.object("pin", "add", "42.28", "-83.74")["id"] as? Int)
        let text = try alice.run("album", "\(pinID)", "--wait")
        #expect(text.status == 1)
        #expect(text.stderr.contains("Invalid API Key"), "\(text.stderr)")
        #expect(!text.stdout.contains("No Images") && !text.stderr.contains("No Images"))
        let json = try alice.run("album", "\(pinID)", "--json")
        #expect(json.status == 1)
        let album = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(album["state"] as? String == "failed")
        #expect((album["error"] as? String)?.contains("Invalid API Key") == true)
    }

    @Test func aPinInTheOpenOceanHasNoImages() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let pinID = try #require(try alice.object("pin", "add", "-40", "-130")["id"] as? Int)
        let album = try alice.run("album", "\(pinID)", "--wait")
        #expect(album.status == 0, "\(album.stderr)")
        #expect(album.stdout.contains("No Images"))
        #expect(try alice.object("album", "\(pinID)")["state"] as? String == "empty")
    }

    @Test func randomSaysNoPinsYetAndThenPicksOneOfMine() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let none = try alice.run("random")
        #expect(none.status == 0)
        #expect(none.stdout.contains("No pins yet"))
        let empty = try alice.object("random")
        #expect(empty["pin"] is NSNull && empty["photo"] is NSNull)

        let pinID = try #require(try alice.object("pin", "add", "42.28", "-83.74")["id"] as? Int)
        _ = try alice.object("album", "\(pinID)", "--wait")
        let pick = try alice.object("random")
        #expect((pick["pin"] as? [String: Any])?["id"] as? Int == pinID)
        #expect((pick["description"] as? String)?.isEmpty == false)
        #expect((pick["photo"] as? [String: Any])?["pin_id"] as? Int == pinID)
        let drawn = try alice.run("random")
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.stdout.contains("Random pin \(pinID)"))
        #expect(drawn.stdout.split(separator: "\n").last?.hasPrefix("photo ") == true)
    }

    @Test func theMapViewIsSavedAndSurvivesARestart() throws {
        let server = try TestServer()
        let alice = try Traveller("alice", server: server)
        let initial = try alice.object("map")
        #expect(initial["zoom"] as? Double == 1)

        _ = try alice.object("pin", "add", "42.28", "-83.74")
        let drawn = try alice.run("map", "--center", "42.28,-83.74", "--zoom", "4")
        #expect(drawn.status == 0, "\(drawn.stderr)")
        #expect(drawn.stdout.contains("zoom 4"))
        #expect(drawn.stdout.contains("pin "))
        #expect(drawn.stdout.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }, "braille outlines")

        func saved() throws -> (Double?, Double?, Double?) {
            let view = try alice.object("map")
            let center = view["center"] as? [String: Any]
            return (center?["latitude"] as? Double, center?["longitude"] as? Double, view["zoom"] as? Double)
        }
        #expect(try saved() == (42.28, -83.74, 4))
        try server.restart()
        #expect(try saved() == (42.28, -83.74, 4), "the view survives a server restart")

        _ = try alice.object("map", "--zoom", "2")
        #expect(try saved() == (42.28, -83.74, 2), "--zoom alone keeps the centre")
        _ = try alice.object("map", "--center", "-33.87, 151.21")
        #expect(try saved() == (-33.87, 151.21, 2))

        #expect(try alice.run("map", "--zoom", "100").status == 8)
        #expect(try alice.run("map", "--zoom", "0.5").status == 8)
        #expect(try alice.run("map", "--center", "95,0").status == 8)
        #expect(try alice.run("map", "--center", "42.28").status == 2)
        #expect(try alice.run("map", "--zoom", "big").status == 2)
        #expect(try saved() == (-33.87, 151.21, 2), "refused views are not saved")
    }
}
