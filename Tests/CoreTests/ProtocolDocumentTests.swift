import Foundation
import ProtocolVectors
import Testing

@testable import Crypto
@testable import Wire

/// The hex examples in docs/PROTOCOL.md are the golden vectors: each must be exactly what the
/// codec produces for the message it shows, and must decode back to it.
@Suite struct ProtocolDocumentTests {
    static let document: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)) ?? ""
    }()

    static func vector(_ name: String) throws -> [UInt8] {
        let marker = "<!-- vector: \(name) -->\n```hex\n"
        guard let start = document.range(of: marker), let end = document.range(of: "```", range: start.upperBound..<document.endIndex)
        else {
            throw WireError.malformed("vector \(name) missing from PROTOCOL.md")
        }
        return document[start.upperBound..<end.lowerBound].split(whereSeparator: { $0 == " " || $0 == "\n" }).map { UInt8($0, radix: 16)! }
    }

    static let time = GoldenVectors.time
    static let png = GoldenVectors.png
    static func cases() -> [(String, Frame)] { GoldenVectors.cases() }

    @Test("a version-1 record reads back in version 1 and is refused as version 2, where it is short")
    func version1LayoutsAreTheirOwn() throws {
        let snaps = try Self.vector("v1-snaps")
        var decoder = FrameDecoder(maxPayload: 1 << 20)
        decoder.append(snaps)
        let frame = try #require(try decoder.nextFrame())
        let asVersion1 = try frame.decode(Snaps.self, version: 1)
        #expect(Frame(asVersion1, requestID: 4, version: 1).encoded() == snaps)
        #expect(asVersion1.snaps.first?.openedCount == 0)
        #expect(throws: WireError.self) { try frame.decode(Snaps.self, version: 2) }
        let image = try Self.vector("v1-snap-image")
        decoder.append(image)
        let imageFrame = try #require(try decoder.nextFrame())
        #expect(try imageFrame.decode(SnapImage.self, version: 1).image == Self.png)
        #expect(throws: WireError.self) { try imageFrame.decode(SnapImage.self, version: 2) }
    }

    @Test("an error code newer than version 1 goes to a version-1 connection as the code version 1 had")
    func newerErrorCodesFallBackInVersion1() throws {
        let error = ErrorMessage(code: .quotaExceeded, message: "over the quota")
        let inVersion2 = try Frame(error, requestID: 3, version: 2).decode(ErrorMessage.self, version: 2)
        let inVersion1 = try Frame(error, requestID: 3, version: 1).decode(ErrorMessage.self, version: 1)
        #expect(inVersion2.code == .quotaExceeded)
        #expect(inVersion1.code == .invalidArgument && inVersion1.message == "over the quota")
        #expect(ErrorCode.alreadyViewed.spoken(in: 1) == .alreadyViewed)
    }

    @Test("a type version 1 lacks does not exist in it, and cannot be decoded as it")
    func newTypesDoNotExistInVersion1() throws {
        for type in [
            MessageType.changePassword, .getSnapViews, .snapViews, .adminUnlock, .adminSetAdmin, .adminResetPassword, .updateMovie,
            .adminAuditLog, .auditLog,
            .adminPurge, .adminExportSnaps, .exportedSnaps, .adminViewSnap,
            .reportSnap, .unsendSnap, .adminListReports, .reports, .adminResolveReport, .adminSuspend, .adminUnsuspend,
            .adminSetDisabled, .adminRenameUser, .adminDeleteUser,
            .adminListPending, .pendingSnaps, .adminApproveSnap,
        ] {
            #expect(MessageType(rawValue: type.rawValue, version: 1) == nil, "\(type)")
            #expect(MessageType(rawValue: type.rawValue, version: 2) == type)
        }
        // Appendix A names every type version 1 lacks, and section 7 every type version 4 brought.
        let appendix = try #require(Self.document.components(separatedBy: "## Appendix A").last)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for type in MessageType.all where !type.exists(in: 1) {
            #expect(appendix.contains("**\(type.name)** (`\(String(format: "0x%04X", type.rawValue))`)"), "Appendix A omits \(type)")
        }
        let frame = Frame(UpdateMovie(title: "a", movie: MovieInfo(title: "b", genre: "c", sales: 1)), requestID: 1)
        #expect(throws: WireError.self) { try frame.decode(UpdateMovie.self, version: 1) }
    }

    @Test("every vector of a served version keeps the bytes it was frozen with, and every vector is frozen")
    func frozenVectorsNeverChange() throws {
        let url = try #require(Bundle.module.url(forResource: "protocol-vectors", withExtension: "frozen", subdirectory: "Fixtures"))
        let frozen = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .reduce(into: [String: String]()) { table, line in
                let parts = line.split(separator: " ", maxSplits: 1)
                table[String(parts[0])] = String(parts[1])
            }
        for (name, frame) in Self.cases() {
            let hex = frame.encoded().map { String(format: "%02X", $0) }.joined(separator: " ")
            guard let kept = frozen[name] else {
                Issue.record(
                    """
                    vector \(name) is not in Fixtures/protocol-vectors.frozen: \
                    add it there as it is now (new vectors are frozen as they are written)
                    """
                )
                continue
            }
            #expect(
                kept == hex,
                """
                vector \(name) changed: \
                a change to an existing message's layout or meaning needs a new protocol version (PROTOCOL.md, section 7)
                """
            )
        }
    }

    @Test func theDocumentIsFound() { #expect(Self.document.contains("# Snapshare wire protocol")) }

    @Test(arguments: cases().map(\.0))
    func theDocumentedBytesAreWhatTheCodecWrites(_ name: String) throws {
        let frame = try #require(Self.cases().first { $0.0 == name }?.1)
        let documented = try Self.vector(name)
        #expect(frame.encoded() == documented)
        var decoder = FrameDecoder(maxPayload: 1 << 20)
        decoder.append(documented)
        #expect(try decoder.nextFrame() == frame)
    }

    @Test func everyVectorInTheDocumentIsChecked() {
        let named = Self.document.components(separatedBy: "<!-- vector: ").dropFirst().map { String($0.prefix { $0 != " " }) }
        #expect(Set(named) == Set(Self.cases().map(\.0)))
    }

    @Test func everyErrorCodeIsDocumented() {
        let codes: [ErrorCode] = [
            .malformedFrame, .frameTooLarge, .helloRequired, .badMagic, .unsupportedVersion, .unknownMessageType,
            .tooManyInFlight, .timeout, .shuttingDown, .unexpectedMessage, .tooManyConnections, .authRequired, .badCredentials,
            .usernameTaken, .badClassCode, .forbidden, .rateLimited, .sessionInvalid, .passwordChangeRequired, .accountClosed,
            .invalidArgument,
            .notFound, .alreadyViewed, .expired, .ownSnap, .alreadyExists, .imageTooLarge, .unsupportedImage,
            .imageDimensionsTooLarge, .albumBusy, .quotaExceeded, .internalError, .storageFailure,
        ]
        for code in codes { #expect(Self.document.contains("| \(code.rawValue) | `\(code.name)` |"), "\(code)") }
    }

    @Test("the minimum sizes section 2 gives each record are the decoder's own")
    func minimumSizesAreTheDecoders() throws {
        let current = ProtocolConstants.current
        let sizes: [(String, Int)] = [
            ("Feed", FeedInfo.minimumEncodedSize(in: current)), ("Snap", SnapInfo.minimumEncodedSize(in: current)),
            ("Viewer", SnapViewer.minimumEncodedSize(in: current)),
            ("User", UserInfo.minimumEncodedSize(in: current)), ("Stat", StatEntry.minimumEncodedSize(in: current)),
            ("AuditRecord", AuditRecord.minimumEncodedSize(in: current)),
            ("Report", SnapReport.minimumEncodedSize(in: current)), ("ReportedSnap", ReportedSnap.minimumEncodedSize(in: current)),
            ("ExportedSnap", ExportedSnap.minimumEncodedSize(in: current)), ("RosterMember", RosterMember.minimumEncodedSize(in: current)),
            ("Pin", PinInfo.minimumEncodedSize(in: current)), ("Photo", PhotoInfo.minimumEncodedSize(in: current)),
            ("Movie", MovieInfo.minimumEncodedSize(in: current)),
        ]
        let sentence = try #require(Self.document.components(separatedBy: "each element has a minimum encoded size:").dropFirst().first)
            .prefix { $0 != ")" }.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let documented = sentence.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(documented == sizes.map { "\($0.0) \($0.1)" }, "section 2's sizes, in this order")
    }

    @Test func everyMessageTypeHasAGoldenVector() {
        let shown = Set(Self.cases().map(\.1.type))
        for type in MessageType.all { #expect(shown.contains(type.rawValue), "no vector shows \(type)") }
    }

    @Test func everyMessageTypeIsDocumented() {
        for type in MessageType.all {
            let hex = String(format: "0x%04X", type.rawValue)
            #expect(Self.document.contains("| `\(hex)` | \(type.name) |"), "\(type)")
        }
    }
}
