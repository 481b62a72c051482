import Client
import TLS
import Wire

/// After the `view` load, tries on purpose to see snaps twice, and counts every success.
///
/// Two checks: a sample of the pairs the load opened is opened again on a fresh connection
/// (each must be ALREADY_VIEWED), and snaps kept back from the load are opened by one user on
/// two connections at once, pipelined so the claims race in the same write batch (exactly one
/// may get the image).
enum ViewOnceCheck {
    struct Outcome {
        /// Opens that had to be refused or had to lose a race.
        var checks = 0
        /// Of those, the ones that got an image anyway.
        var doubleViews = 0
        /// Races nobody won (the one open that should succeed failed).
        var errors: [String: Int] = [:]
    }

    static let recheckSample = 200
    static let racingUsers = 2

    static func run(
        options: BenchOptions, context: TLSContext, fixture: BenchFixture,
        openedPairs: [(user: Int, snapID: UInt64)]
    ) throws -> Outcome {
        var outcome = Outcome()
        try recheck(options: options, context: context, fixture: fixture, openedPairs: openedPairs, into: &outcome)
        try race(options: options, context: context, fixture: fixture, into: &outcome)
        return outcome
    }

    private static func recheck(
        options: BenchOptions, context: TLSContext, fixture: BenchFixture,
        openedPairs: [(user: Int, snapID: UInt64)], into outcome: inout Outcome
    ) throws {
        guard !openedPairs.isEmpty else { return }
        let step = max(1, openedPairs.count / recheckSample)
        var byUser: [Int: [UInt64]] = [:]
        for index in stride(from: 0, to: openedPairs.count, by: step) {
            byUser[openedPairs[index].user, default: []].append(openedPairs[index].snapID)
        }
        for (user, snaps) in byUser {
            let connection = try FixtureConnection(options: options, context: context, token: fixture.tokens[user])
            defer { connection.close() }
            // Windows of 32 stay under the server's limit on requests in flight.
            var replies: [OpenReply] = []
            for start in stride(from: 0, to: snaps.count, by: 32) {
                replies += try openAll(Array(snaps[start..<min(start + 32, snaps.count)]), on: [connection])
            }
            for reply in replies {
                outcome.checks += 1
                switch reply {
                case .image: outcome.doubleViews += 1
                case .refused(let code) where code == .alreadyViewed: break
                case .refused(let code): outcome.errors["RECHECK_" + code.name, default: 0] += 1
                }
            }
        }
    }

    private static func race(
        options: BenchOptions, context: TLSContext, fixture: BenchFixture,
        into outcome: inout Outcome
    ) throws {
        guard !fixture.raceSnapIDs.isEmpty else { return }
        for user in 0..<min(racingUsers, fixture.tokens.count) {
            let first = try FixtureConnection(options: options, context: context, token: fixture.tokens[user])
            let second = try FixtureConnection(options: options, context: context, token: fixture.tokens[user])
            defer {
                first.close()
                second.close()
            }
            let replies = try openAll(fixture.raceSnapIDs, on: [first, second])
            // replies holds the first connection's answers, then the second's, in snap order.
            let count = fixture.raceSnapIDs.count
            for index in 0..<count {
                let winners = [replies[index], replies[count + index]].filter { if case .image = $0 { true } else { false } }.count
                outcome.checks += 1
                if winners > 1 { outcome.doubleViews += winners - 1 }
                if winners == 0 { outcome.errors["RACE_WITHOUT_WINNER", default: 0] += 1 }
            }
        }
    }

    enum OpenReply {
        case image
        case refused(ErrorCode)
    }

    /// Sends OpenSnap for every snap on every connection before reading any reply; returns the
    /// replies connection by connection, each in `snaps` order.
    private static func openAll(_ snaps: [UInt64], on connections: [FixtureConnection]) throws -> [OpenReply] {
        var ids: [[UInt32]] = []
        for connection in connections {
            ids.append(try snaps.map { try connection.connection.send(OpenSnap(snapID: $0)) })
        }
        var replies: [OpenReply] = []
        for (connection, expected) in zip(connections, ids) {
            var byID: [UInt32: OpenReply] = [:]
            while byID.count < expected.count {
                let frame = try connection.connection.receive()
                if frame.type == MessageType.snapImage.rawValue {
                    byID[frame.requestID] = .image
                } else if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self) {
                    byID[frame.requestID] = .refused(error.code)
                } else {
                    throw BenchError("unexpected reply type 0x\(String(frame.type, radix: 16)) to OpenSnap")
                }
            }
            replies += expected.map { byID[$0]! }
        }
        return replies
    }
}
