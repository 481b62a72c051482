import Foundation

/// Runs the deliberately slow password KDF off the event loop, off the storage threads and off
/// the handler threads, on two threads of its own: a burst of logins costs bounded memory
/// (scrypt takes 16 MiB each), never delays other requests, and never waits for a thread from
/// a shared pool that someone else may be blocking.
final class PasswordWork: Sendable {
    private let executor = ThreadPoolExecutor(threads: 2, name: "kdf")
    private let hasher = PasswordHasher()
    /// A real hash of a random password, verified against when the user does not exist.
    private let dummyHash: String

    init() {
        dummyHash = (try? PasswordHasher().hash(password: UUID().uuidString)) ?? ""
    }

    deinit { executor.shutdown() }

    func hash(_ password: String) async throws -> String {
        try await withTaskExecutorPreference(executor) { [hasher] in
            try hasher.hash(password: password)
        }
    }

    /// Whether a stored hash was made at another cost than today's (a login then stores it again).
    func needsRehash(_ encoded: String) -> Bool { hasher.needsRehash(encoded) }

    /// Verifies `password` against `encoded`, or against a dummy hash when `encoded` is nil
    /// (always false then, after the same work).
    func verify(_ password: String, encoded: String?) async -> Bool {
        await withTaskExecutorPreference(executor) { [hasher, dummyHash] in
            hasher.verify(password: password, encoded: encoded ?? dummyHash) && encoded != nil
        }
    }
}
