import Foundation

/// Runs the deliberately slow password KDF off the event loop and off the storage threads, two
/// at a time, so a burst of logins costs bounded memory (scrypt takes 16 MiB each) and never
/// delays other requests' storage work.
final class PasswordWork: Sendable {
    private let queue: OperationQueue
    private let hasher = PasswordHasher()
    /// A real hash of a random password, verified against when the user does not exist.
    private let dummyHash: String

    init() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        queue.name = "snapshare-kdf"
        self.queue = queue
        dummyHash = (try? PasswordHasher().hash(password: UUID().uuidString)) ?? ""
    }

    func hash(_ password: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            queue.addOperation { [hasher] in
                continuation.resume(with: Result { try hasher.hash(password: password) })
            }
        }
    }

    /// Verifies `password` against `encoded`, or against a dummy hash when `encoded` is nil
    /// (always false then, after the same work).
    func verify(_ password: String, encoded: String?) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.addOperation { [hasher, dummyHash] in
                let ok = hasher.verify(password: password, encoded: encoded ?? dummyHash)
                continuation.resume(returning: ok && encoded != nil)
            }
        }
    }
}
