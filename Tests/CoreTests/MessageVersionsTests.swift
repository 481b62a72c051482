import ProtocolVectors
import Testing

@testable import Wire

/// Every message type, in every protocol version it exists in: the golden vectors' messages,
/// written and read back in each version, give the same bytes again. A layout a version reads
/// differently from how it writes, or a field written in a version that does not read it, fails
/// here.
@Suite struct MessageVersionsTests {
    /// The version a golden vector is written in: its name says so for an older one (`v1-…`).
    static func version(of name: String) -> UInt16 {
        guard name.hasPrefix("v"), let digit = name.dropFirst().first?.wholeNumberValue, name.dropFirst(2).hasPrefix("-") else {
            return ProtocolConstants.current
        }
        return UInt16(digit)
    }

    /// The bytes `frame`'s message gives in `version`, written, read back and written again (equal, or a failure).
    static func roundTrip<M: WireMessage>(_: M.Type, _ frame: Frame, from written: UInt16, in version: UInt16) throws -> (
        first: [UInt8], again: [UInt8]
    ) {
        let message = try frame.decode(M.self, version: written)
        let first = Frame(message, requestID: frame.requestID, version: version)
        let again = Frame(try first.decode(M.self, version: version), requestID: frame.requestID, version: version)
        return (first.encoded(), again.encoded())
    }

    @Test("every message type round-trips in every protocol version it exists in")
    func everyTypeInEveryVersion() throws {
        let decoders = Dictionary(uniqueKeysWithValues: FrameFuzzing.decodable.map { ($0.type.rawValue, $0) })
        var covered: [UInt16: Set<UInt16>] = [:]
        for (name, frame) in GoldenVectors.cases() {
            let type = try #require(MessageType(rawValue: frame.type), "\(name)")
            let decoder = try #require(decoders[frame.type], "no decoder for \(type)")
            let written = Self.version(of: name)
            for version in type.since...ProtocolConstants.current {
                let bytes = try Self.roundTrip(decoder, frame, from: written, in: version)
                #expect(bytes.first == bytes.again, "\(name) in version \(version)")
                if version == written { #expect(bytes.first == frame.encoded(), "\(name): its own version gives its own bytes") }
                covered[frame.type, default: []].insert(version)
            }
        }
        for type in MessageType.all {
            #expect(
                covered[type.rawValue] == Set(type.since...ProtocolConstants.current),
                "\(type) is not written in every version it exists in")
        }
    }

    @Test("a type read in a version that lacks it is refused")
    func aTypeOutsideItsVersionsIsUnknown() {
        for type in MessageType.all where type.since > 1 {
            #expect(MessageType(rawValue: type.rawValue, version: type.since - 1) == nil, "\(type)")
            #expect(MessageType(rawValue: type.rawValue, version: type.since) == type, "\(type)")
        }
    }
}
