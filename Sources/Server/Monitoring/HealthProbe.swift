import Foundation
import Synchronization

/// `GET /health`'s question: does the server listen, and does the store answer a trivial read
/// within `timeout`? Never waits longer than that, whatever the store does: a read still
/// unanswered from an earlier check makes later checks fail at once instead of queueing more.
final class HealthProbe: Sendable {
    private let storage: StorageExecutor
    private let logger: Logger
    private let timeout: Duration
    /// A check's read is still queued or running in storage.
    private let waiting = Atomic<Bool>(false)
    /// The last check failed.
    private let failing = Atomic<Bool>(false)

    init(storage: StorageExecutor, logger: Logger, timeout: Duration = .seconds(1)) {
        self.storage = storage
        self.logger = logger
        self.timeout = timeout
    }

    /// nil when healthy; otherwise a short reason for the 503.
    func problem(listening: Bool) -> String? {
        let problem = listening ? storeProblem() : (reason: "the server is not serving (draining or stopped)", detail: "")
        // A load balancer asks several times a second: the log says when the answer changes.
        let wasFailing = failing.exchange(problem != nil, ordering: .relaxed)
        if let problem, !wasFailing { logger.warning("health check failing: \(problem.reason)\(problem.detail)") }
        if problem == nil, wasFailing { logger.info("health check passing again") }
        return problem?.reason
    }

    /// Why the store is not healthy: a short reason for whoever asks, and the details (which
    /// may name the database) for the log only.
    private func storeProblem() -> (reason: String, detail: String)? {
        guard !waiting.exchange(true, ordering: .acquiringAndReleasing) else {
            return ("the store has not answered the previous check yet", "")
        }
        let answer = Answer()
        storage.read(
            { store in try store.answers() },
            completion: { [self] result in
                answer.outcome.withLock { $0 = result }
                waiting.store(false, ordering: .releasing)
                answer.arrived.signal()
            })
        let (seconds, attoseconds) = timeout.components
        let wait = Double(seconds) + Double(attoseconds) / 1e18
        guard answer.arrived.wait(timeout: .now() + wait) == .success else {
            return ("the store did not answer within \(String(format: "%g", wait)) s", "")
        }
        guard case .failure(let error) = answer.outcome.withLock({ $0 }) else { return nil }
        let unavailable = (error as? StoreError)?.kind == .unavailable
        return (unavailable ? "the store is unavailable" : "the store failed", " (\(error))")
    }
}

/// One check's read, answered on a storage thread, perhaps after the check gave up on it.
private final class Answer: Sendable {
    let arrived = DispatchSemaphore(value: 0)
    let outcome = Mutex<Result<Void, any Error>?>(nil)
}
