/// `async` forms for request handlers: they suspend instead of blocking a thread.
extension StorageExecutor {
    /// `write`, awaited: returns once the job's batch has committed.
    package func write<T: Sendable>(_ job: @escaping @Sendable (any SnapshareStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            write(job) { continuation.resume(with: $0) }
        }
    }

    /// `read`, awaited.
    package func read<T: Sendable>(_ job: @escaping @Sendable (any SnapshareStore) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            read(job) { continuation.resume(with: $0) }
        }
    }
}
