@testable import Shared

/// Golden vectors of docs/PROTOCOL.md for favorite movies.
enum MovieProtocolVectors {
    static func cases() -> [(String, Frame)] { [] }
}
