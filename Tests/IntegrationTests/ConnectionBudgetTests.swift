import Client
import Crypto
import Foundation
import Imaging
import Server
import TLS
import TestSupport
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// What a connection may hold is bounded whatever it pipelines: a client that sends many
/// requests and never reads costs the server its buffer budget, not one reply per request.
/// The server runs as its own process, so its memory is measured alone.
@Suite struct ConnectionBudgetTests {
    static let snaps = 5_000
    static let pipelined = 64
    static let budget = 2 << 20

    /// A data folder whose Memes feed holds `snaps` tiny snaps, written straight into SQLite.
    static func seededDataFolder(_ directory: TemporaryDirectory) throws -> String {
        let data = directory.path + "/data"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let storage = try StorageExecutor.sqlite(path: ServerConfiguration.databasePath(in: data), readers: 1)
        defer { storage.shutdown() }
        let image = try ImageCodec.encodePNG(RGBImage(width: 1, height: 1, pixels: [200, 40, 40]))
        let now = WallClock.system.now()
        try storage.writeSync { store in
            let poster = try store.createUser(name: "poster", passwordHash: "unused", isAdmin: false, at: now)
            let feed = try store.requireFeed(named: "Memes")
            for index in 0..<snaps {
                _ = try store.insertSnap(
                    NewSnap(
                        feedID: feed.id, posterID: poster.id, image: image, sha256: SHA256.hash(image),
                        format: .png, width: 1, height: 1, postedAt: now - Int64(index),
                        expiresAt: now + 86_400_000))
            }
        }
        return data
    }

    /// The resident memory of process `pid`, in bytes.
    static func residentBytes(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The resident memory once it has not grown for a second and a half (at most `timeout`
    /// seconds). Memory growing announces nothing, and neither does its end: it is sampled.
    static func settledResidentBytes(_ pid: Int32, timeout: Double = 20) -> Int {
        var last = residentBytes(pid)
        var stableSince = Date()
        let settled = Polling.first(timeout: timeout, every: 0.2) { () -> Int? in
            let now = residentBytes(pid)
            if now > last + 64 * 1024 { stableSince = Date() }
            last = max(last, now)
            return Date().timeIntervalSince(stableSince) >= 1.5 ? last : nil
        }
        return settled ?? last
    }

    @Test func pipelinedListingsThatAreNeverReadCostTheBudgetNotOneReplyEach() throws {
        let directory = TemporaryDirectory("snapshare-budget")
        let data = try Self.seededDataFolder(directory)
        let server = try ServerProcess(
            dataDirectory: data, certsDirectory: directory.path + "/certs", port: ServerProcess.freePort(),
            // The budget is at least one largest frame: keep images small so 2 MiB is it.
            arguments: ["--max-connection-buffer", "\(Self.budget)", "--max-image-bytes", "\(1 << 20)"])
        defer { server.stop() }
        let context = try TLSContext.client(trustRootsFile: directory.path + "/certs/ca.pem")
        func connect() throws -> ServerConnection {
            let connection = try ServerConnection(host: "127.0.0.1", port: server.port, context: context, timeout: 60)
            _ = try connection.hello()
            return connection
        }
        let first = try connect()
        let token = try ServerConnection.expect(
            try first.roundTrip(Register(username: "reader", password: "long enough pw", classCode: "")), as: Authenticated.self
        ).token
        var readers = [first]
        for _ in 1..<2 {
            let connection = try connect()
            _ = try ServerConnection.expect(try connection.roundTrip(Resume(token: token)), as: Authenticated.self)
            readers.append(connection)
        }
        // Warm up: one listing each, read in full, so the baseline holds what one listing costs.
        for reader in readers {
            let listing = try ServerConnection.expect(try reader.roundTrip(ListSnaps(feed: "Memes")), as: Snaps.self)
            #expect(listing.snaps.count == Self.snaps)
        }
        let pid = server.process.processIdentifier
        let baseline = Self.settledResidentBytes(pid)
        for reader in readers {
            for _ in 0..<Self.pipelined { try reader.send(ListSnaps(feed: "Memes")) }
        }
        let loaded = Self.settledResidentBytes(pid)
        let perConnection = (loaded - baseline) / readers.count
        // One listing of 5,000 snaps is about 270 KB; 64 of them would be 17 MB.
        #expect(perConnection < Self.budget + 2 << 20, "each connection holds \(perConnection) bytes; the budget is \(Self.budget)")
        // Nothing was lost: every request is answered once the client reads.
        for reader in readers {
            for _ in 0..<Self.pipelined {
                let frame = try reader.receive()
                #expect(try frame.decode(Snaps.self).snaps.count == Self.snaps)
            }
        }
    }
}
