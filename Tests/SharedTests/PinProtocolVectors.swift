@testable import Shared

/// Golden vectors of docs/PROTOCOL.md for pins, albums, photos and the map.
enum PinProtocolVectors {
    static func cases() -> [(String, Frame)] { [] }
}
