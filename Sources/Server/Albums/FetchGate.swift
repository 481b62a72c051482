import Synchronization

/// Lets photo fetches start, or holds them before they touch the provider.
///
/// Open by default. An operator (or a test that needs an album to stay downloading without
/// relying on timing) can `pause` it, then let fetches through one `allow(_:)` at a time or all
/// at once with `open`. Searches are never held, so a held album still knows its expected
/// count. Waiting is cancellable, so a held download still stops when its pin is deleted or the
/// server stops.
final class FetchGate: Sendable {
    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var isOpen = true
        /// Fetches allowed through while paused, not yet used.
        var allowance = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Holds every fetch that has not started yet.
    func pause() {
        state.withLock { state in
            state.isOpen = false
            state.allowance = 0
        }
    }

    /// Lets `count` more fetches through while paused (waiting ones first, in order).
    func allow(_ count: Int) {
        let woken = state.withLock { state -> [Waiter] in
            let taken = Array(state.waiters.prefix(max(0, count)))
            state.waiters.removeFirst(taken.count)
            state.allowance += max(0, count) - taken.count
            return taken
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// Lets every fetch through, now and later.
    func open() {
        let woken = state.withLock { state -> [Waiter] in
            state.isOpen = true
            state.allowance = 0
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in woken { waiter.continuation.resume() }
    }

    /// How many fetches are held right now.
    var heldCount: Int { state.withLock { $0.waiters.count } }

    /// Returns when the fetch may start; throws `CancellationError` if cancelled while held.
    func pass() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.isOpen { return .success(()) }
                    if state.allowance > 0 {
                        state.allowance -= 1
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
}
