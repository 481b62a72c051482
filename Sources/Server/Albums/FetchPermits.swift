/// A counting semaphore for async code: at most `limit` holders at once, the others wait in
/// order. Bounds how many photos the whole server fetches at the same time, whatever the number
/// of albums downloading. Waiting is cancellable.
final class FetchPermits: Sendable {
    /// The condition is the number of permits available.
    private let queue: AsyncWaitQueue<Int>

    init(limit: Int) {
        queue = AsyncWaitQueue(max(1, limit))
    }

    /// Waits for a permit; throws `CancellationError` if the task is cancelled first.
    func acquire() async throws {
        try await queue.wait { available in
            guard available > 0 else { return false }
            available -= 1
            return true
        }
    }

    /// Returns a permit: the longest waiter gets it.
    func release() {
        queue.update { available, waiting in
            if waiting > 0 { return 1 }
            available += 1
            return 0
        }
    }
}
