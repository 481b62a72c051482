import Foundation
import Synchronization

/// Work started at the same moment, each piece on a thread of its own (racing requests, racing
/// store connections): what each piece returned or threw, in the order the pieces were given.
package enum Race {
    /// Runs every piece of `work` at once and waits for all of them.
    package static func run<T: Sendable>(_ work: [@Sendable () throws -> T]) -> [Result<T, any Error>] {
        let results = Mutex([Result<T, any Error>?](repeating: nil, count: work.count))
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for (index, piece) in work.enumerated() {
            group.enter()
            Thread {
                start.wait()
                let result = Result { try piece() }
                results.withLock { $0[index] = result }
                group.leave()
            }.start()
        }
        for _ in work { start.signal() }
        group.wait()
        return results.withLock { $0.map { $0! } }
    }
}

extension Array {
    /// How many of these race results succeeded.
    package func successes<T>() -> Int where Element == Result<T, any Error> {
        count { if case .success = $0 { true } else { false } }
    }

    /// The errors of these race results, in order.
    package func failures<T>() -> [any Error] where Element == Result<T, any Error> {
        compactMap { if case .failure(let error) = $0 { error } else { nil } }
    }
}
