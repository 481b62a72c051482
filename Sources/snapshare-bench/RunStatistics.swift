import Wire

/// What a run counted while it measured.
struct RunStatistics {
    /// Successful operations and their latencies, per kind.
    var latencies = [LatencyRecorder](repeating: LatencyRecorder(), count: OperationKind.allCases.count)
    /// Failed operations and lost connections, by error code name (e.g. ALREADY_VIEWED, CONNECTION_CLOSED).
    var errors: [String: Int] = [:]
    /// Opens that succeeded for a (snap, user) pair that had already succeeded: must stay 0.
    var doubleViews = 0
    /// Second opens tried on purpose after the load, each of which had to be refused.
    var doubleViewChecks = 0
    /// Polls that reported a change.
    var changedPolls = 0
    /// Snap records received in listings.
    var listedSnaps = 0
    /// Image bytes received in opened snaps.
    var imageBytesReceived = 0
    /// Requests still unanswered when their connection died.
    var lostRequests = 0

    var operations: Int { latencies.reduce(0) { $0 + $1.count } }
    var errorCount: Int { errors.values.reduce(0, +) }

    mutating func record(_ kind: OperationKind, nanoseconds: UInt64) {
        latencies[kind.rawValue].record(nanoseconds: nanoseconds)
    }

    mutating func countError(_ name: String) { errors[name, default: 0] += 1 }

    /// Reads a poll's reply, moving the connection's known version on when it changed; an error name when it is not a poll result.
    mutating func notePoll(_ frame: Frame, on connection: LoadConnection) -> String? {
        guard let result = try? frame.decode(PollResult.self) else { return "UNEXPECTED_REPLY" }
        if result.changed {
            connection.knownVersion = result.version
            changedPolls += 1
        }
        return nil
    }

    /// Every kind's latencies together.
    var allLatencies: LatencyRecorder {
        latencies.reduce(into: LatencyRecorder()) { $0.merge($1) }
    }
}
