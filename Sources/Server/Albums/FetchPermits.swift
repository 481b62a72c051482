import Synchronization

/// A counting semaphore for async code: at most `limit` holders at once, the others wait in
/// order. Bounds how many photos the whole server fetches at the same time, whatever the number
/// of albums downloading. Waiting is cancellable.
final class FetchPermits: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(limit: Int) {
        state = Mutex(State(available: max(1, limit)))
    }

    /// Waits for a permit; throws `CancellationError` if the task is cancelled first.
    func acquire() async throws {
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
                    if state.available > 0 {
                        state.available -= 1
                        return .success(())
                    }
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

    /// Returns a permit: the longest waiter gets it.
    func release() {
        let next = state.withLock { state -> Waiter? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
