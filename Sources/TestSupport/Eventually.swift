import Foundation

/// Asks `condition` again and again until it holds, for what nothing announces (a row a server
/// writes after its reply, a counter, a file another process writes, a process gone): the one
/// polling loop of the tests. Where an event exists (a line the server prints or logs, a reply, a
/// process's exit, a socket's end, a semaphore the test's own code signals), a test waits on that
/// instead. The deadline only turns a hang into a failure; it is not a timing assertion.
///
/// Throws `NeverHappened`, naming `awaited` ("the album of pin 3 to finish downloading"), when
/// `timeout` seconds pass first; an error `condition` throws ends the wait at once.
package func eventually(
    _ awaited: @autoclosure () -> String, timeout: Double = 30, every interval: Double = 0.02,
    _ condition: () throws -> Bool
) throws {
    try eventually(awaited(), timeout: timeout, every: interval) { try condition() ? () : nil }
}

/// `eventually` for a value: asks `probe` until it returns one, and returns it.
@discardableResult
package func eventually<Value>(
    _ awaited: @autoclosure () -> String, timeout: Double = 30, every interval: Double = 0.02,
    _ probe: () throws -> Value?
) throws -> Value {
    guard let value = try Polling.first(timeout: timeout, every: interval, probe) else {
        throw NeverHappened(awaited: awaited(), seconds: timeout)
    }
    return value
}

/// The loop itself, for the few waits that end without a failure (a screen captured until it
/// settles, whose last capture is the answer either way).
package enum Polling {
    /// Asks `probe` every `interval` seconds until it returns a value; nil once `timeout` seconds
    /// passed without one. The first ask is at once.
    package static func first<Value>(timeout: Double, every interval: Double, _ probe: () throws -> Value?) rethrows -> Value? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let value = try probe() { return value }
            guard Date() < deadline else { return nil }
            // The tests' one polling pause: between two asks of what announces nothing.
            Thread.sleep(forTimeInterval: min(interval, max(0, deadline.timeIntervalSinceNow)))
        }
    }
}

/// What `eventually` throws when what it waited for did not happen in time.
package struct NeverHappened: Error, CustomStringConvertible {
    package let awaited: String
    package let seconds: Double

    package var description: String { "waited \(String(format: "%g", seconds)) s for \(awaited); it never happened" }
}
