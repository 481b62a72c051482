import Client
import Foundation
import Synchronization
import TestSupport
import Wire

/// Images for tests: the bundled samples, read from the repository.
enum TestImages {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func sample(_ number: Int) -> [UInt8] {
        let folder = repository.appendingPathComponent("Sources/Client/Resources/Samples")
        let file = try! FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()[number - 1]
        return [UInt8](FileManager.default.contents(atPath: folder.appendingPathComponent(file).path)!)
    }

    /// A PNG whose header claims a huge image: a decompression bomb by its dimensions.
    static func bombPNG(width: UInt32 = 60_000, height: UInt32 = 60_000) -> [UInt8] {
        var ihdr: [UInt8] = Array("IHDR".utf8)
        for v in [width, height] { ihdr += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        ihdr += [8, 2, 0, 0, 0]
        let crc = CRC32.checksum(ihdr)
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr
        bytes += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        return bytes + Array(repeating: 0, count: 100)
    }
}

/// CRC-32 as PNG uses it, for forging headers in tests.
enum CRC32 {
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// Runs `body` and returns the client error it throws (or nil).
func clientError(_ body: () throws -> Void) -> ClientError? {
    do {
        try body()
        return nil
    } catch let error as ClientError { return error } catch { return ClientError(.local, "\(error)") }
}

/// Whether `session`'s server ends it within seconds (its requests then fail as logged out): a
/// session ended elsewhere, by an admin or an offline command, reaches its live connection as a
/// fatal error the server sends unasked, which this waits for (up to the connection's timeout).
func endsWithinSeconds(_ session: SnapshareSession) -> Bool {
    guard let frame = try? session.connection.receive(), frame.type == MessageType.error.rawValue,
        (try? frame.decode(ErrorMessage.self))?.fatal == true
    else { return false }
    return clientError({ _ = try session.whoAmI() })?.kind == .auth
}

/// Sessions opening one snap at the same moment, each on a thread of its own.
enum OpenRace {
    struct Outcome { var wins = 0, alreadyViewed = 0, other = 0 }

    static func run(_ sessions: [SnapshareSession], snapID: UInt64) -> Outcome {
        let results = Race.run(sessions.map(UncheckedSendable.init).map { racer in { _ = try racer.value.open(snapID: snapID) } })
        let alreadyViewed = results.failures().count { ($0 as? ClientError)?.serverCode == .alreadyViewed }
        return Outcome(wins: results.successes(), alreadyViewed: alreadyViewed, other: results.failures().count - alreadyViewed)
    }
}
