import Testing
import Wire

@testable import Client

/// How the server's refusals become exit codes: each known code by its meaning, and a code this
/// client does not know by its hundred, as docs/PROTOCOL.md (section 7) asks of every client.
@Suite struct ClientErrorTests {
    static func exit(_ code: UInt16) -> Int32 {
        ClientError(server: ErrorMessage(code: ErrorCode(rawValue: code), fatal: false, message: "no")).exitCode
    }

    @Test func anAccessRefusalExitsAsNotAllowedWhateverItsReason() {
        #expect(Self.exit(ErrorCode.passwordChangeRequired.rawValue) == ExitCode.auth.rawValue)
        #expect(Self.exit(ErrorCode.forbidden.rawValue) == ExitCode.auth.rawValue)
        #expect(Self.exit(299) == ExitCode.auth.rawValue, "a 2xx code added after this client")
    }

    @Test func anUnknownCodeIsJudgedByItsHundred() {
        #expect(Self.exit(399) == ExitCode.rejected.rawValue)
        #expect(Self.exit(599) == ExitCode.failure.rawValue)
        #expect(Self.exit(ErrorCode.notFound.rawValue) == ExitCode.notFound.rawValue)
        #expect(Self.exit(ErrorCode.alreadyViewed.rawValue) == ExitCode.alreadyViewed.rawValue)
        #expect(Self.exit(ErrorCode.storageFailure.rawValue) == ExitCode.failure.rawValue)
    }
}
