import Foundation

/// The server's one source of the time of day, in milliseconds since the Unix epoch: what every
/// stored timestamp, expiry, session and throttle is measured in. The server takes it at start
/// and hands it to every part that reads the time; tests hand in one they move themselves
/// (TestSupport's `ManualClock`), so expiry is tested without waiting for it.
package struct WallClock: Sendable {
    private let read: @Sendable () -> Int64

    package init(_ read: @escaping @Sendable () -> Int64) { self.read = read }

    /// Milliseconds since the Unix epoch.
    package func now() -> Int64 { read() }

    /// The machine's clock.
    package static let system = WallClock { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
