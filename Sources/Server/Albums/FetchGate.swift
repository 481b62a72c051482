/// Lets photo fetches start, or holds them before they touch the provider.
///
/// Open by default. An operator (or a test that needs an album to stay downloading without
/// relying on timing) can `pause` it, then let fetches through one `allow(_:)` at a time or all
/// at once with `open`. Searches are never held, so a held album still knows its expected
/// count. Waiting is cancellable, so a held download still stops when its pin is deleted or the
/// server stops.
final class FetchGate: Sendable {
    private struct Condition {
        var isOpen = true
        /// Fetches allowed through while paused, not yet used.
        var allowance = 0
    }

    private let queue = AsyncWaitQueue(Condition())

    /// Holds every fetch that has not started yet.
    func pause() {
        queue.update { condition, _ in
            condition.isOpen = false
            condition.allowance = 0
            return 0
        }
    }

    /// Lets `count` more fetches through while paused (waiting ones first, in order).
    func allow(_ count: Int) {
        queue.update { condition, waiting in
            let woken = min(waiting, max(0, count))
            condition.allowance += max(0, count) - woken
            return woken
        }
    }

    /// Lets every fetch through, now and later.
    func open() {
        queue.update { condition, waiting in
            condition.isOpen = true
            condition.allowance = 0
            return waiting
        }
    }

    /// How many fetches are held right now.
    var heldCount: Int { queue.waitingCount }

    /// Returns when the fetch may start; throws `CancellationError` if cancelled while held.
    func pass() async throws {
        try await queue.wait { condition in
            if condition.isOpen { return true }
            guard condition.allowance > 0 else { return false }
            condition.allowance -= 1
            return true
        }
    }
}
