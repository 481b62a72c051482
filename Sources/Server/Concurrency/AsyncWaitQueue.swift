import Synchronization

/// Async callers waiting in order for a condition an owner keeps, each wait cancellable.
///
/// The owner decides, under the queue's lock, whether a newcomer passes at once (`wait`'s
/// `admit`) and how many waiters, oldest first, an update lets through (`update`). FetchPermits
/// (a counting semaphore) and FetchGate (a pausable gate) are both this with another condition.
final class AsyncWaitQueue<Condition: Sendable>: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var condition: Condition
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(_ condition: Condition) {
        state = Mutex(State(condition: condition))
    }

    /// How many callers wait right now.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// Returns at once if `admit` (run under the lock) says so, else when an `update` lets this
    /// caller through; throws `CancellationError` if the task is cancelled while waiting.
    func wait(admit: (inout Condition) -> Bool) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    // Checked under the lock: a cancellation handler that ran before we queued
                    // found nothing to remove, so we must not queue now.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if admit(&state.condition) { return .success(()) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Changes the condition under the lock; `body` gets the number waiting and returns how many
    /// of them, oldest first, may go now.
    func update(_ body: (inout Condition, _ waiting: Int) -> Int) {
        let woken = state.withLock { state -> [Waiter] in
            let count = min(max(0, body(&state.condition, state.waiters.count)), state.waiters.count)
            defer { state.waiters.removeFirst(count) }
            return Array(state.waiters.prefix(count))
        }
        for waiter in woken { waiter.continuation.resume() }
    }
}
