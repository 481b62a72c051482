import Client
import Foundation
import Posix
import Synchronization
import TLS
import Wire

/// The album photos the `photo` scenario fetches: one pin per bench user at a fixed place, its
/// album downloaded by the server from whatever photo source it runs with. Photos are private,
/// so every user fetches from their own album.
///
/// `scripts/bench.sh` starts the server with `--photos dir:FOLDER`, a folder written by
/// `snapshare-bench --write-photos FOLDER`: 21 noise PNGs of `--image-bytes` at this place.
enum PhotoAlbums {
    static let latitude = 46.5
    static let longitude = 8.25
    /// One search page: the most photos an album holds.
    static let photosPerAlbum = 21
    static let albumTimeoutSeconds = 120.0

    /// The server cannot run the scenario (it does not know pins, or its source found nothing).
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Ready photo ids per user index: reuses the user's pin at the bench place, or drops one,
    /// then waits until its album has finished downloading.
    static func prepare(_ options: BenchOptions, context: TLSContext, tokens: [String]) throws -> [[UInt64]] {
        let photos = Mutex<[[UInt64]]>(Array(repeating: [], count: tokens.count))
        let failure = Mutex<(any Error)?>(nil)
        let workers = min(4, tokens.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                for index in stride(from: worker, to: tokens.count, by: workers) {
                    let connection = try FixtureConnection(options: options, context: context, token: tokens[index])
                    defer { connection.close() }
                    let ids = try readyPhotos(on: connection)
                    photos.withLock { $0[index] = ids }
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return photos.withLock { $0 }
    }

    private static func readyPhotos(on fixture: FixtureConnection) throws -> [UInt64] {
        let pins: Pins = try expect(fixture.connection.roundTrip(ListPins()))
        let pinID: UInt64
        if let pin = pins.pins.first(where: { abs($0.latitude - latitude) < 1e-9 && abs($0.longitude - longitude) < 1e-9 }) {
            pinID = pin.id
        } else {
            let dropped: PinResult = try expect(fixture.connection.roundTrip(AddPin(latitude: latitude, longitude: longitude)))
            pinID = dropped.pin.id
        }
        let deadline = Date().addingTimeInterval(albumTimeoutSeconds)
        while true {
            let album: Album = try expect(fixture.connection.roundTrip(GetAlbum(pinID: pinID)))
            switch album.state {
            case .ready:
                let ids = album.photos.filter { $0.state == .ready }.map(\.id)
                guard !ids.isEmpty else { throw Unavailable(description: "the album at the bench place has no ready photo") }
                return ids
            case .empty:
                throw Unavailable(description: "the server's photo source has no photos at \(latitude), \(longitude)")
            case .failed:
                throw Unavailable(description: "the album failed: \(album.error)")
            case .downloading:
                guard Date() < deadline else { throw BenchError("album of pin \(pinID) still downloading after \(albumTimeoutSeconds) s") }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// The typed reply, or `Unavailable` when the server does not know the request at all.
    private static func expect<M: WireMessage>(_ frame: Frame) throws -> M {
        if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self),
            [.unknownMessageType, .unexpectedMessage, .internalError].contains(error.code)
        {
            throw Unavailable(description: "not available: the server answers \(error.code.name) to the album requests")
        }
        return try ServerConnection.expect(frame)
    }

    /// Writes a photo folder for `--photos dir:FOLDER`: noise PNGs of about `bytes` each, at the bench place.
    static func writeFolder(_ folder: String, bytes: Int) throws {
        do { try FileSystem.makeFolders(folder, mode: 0o755) } catch {
            throw BenchError("cannot make \(error.path ?? folder): \(error.reason)")
        }
        var index = "file,lat,lon,title,tags\n"
        for number in 0..<photosPerAlbum {
            let name = String(format: "bench-%02d.png", number)
            let image = try BenchImage.noisePNG(approximately: bytes, seed: UInt64(number + 1))
            try write(image, to: folder + "/" + name)
            // A few metres apart, all well inside the smallest search radius.
            index +=
                "\(name)," + String(format: "%.6f,%.6f", latitude + Double(number) * 0.00001, longitude)
                + ",Bench photo \(number),bench noise\n"
        }
        try write(Array(index.utf8), to: folder + "/index.csv")
    }

    private static func write(_ bytes: [UInt8], to path: String) throws {
        do { try StagedOutput.write(bytes, to: path, mode: 0o644, replacing: true) } catch { throw BenchError(error.description) }
    }
}
