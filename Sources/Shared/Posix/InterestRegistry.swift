/// Where a registered descriptor's readiness interest is kept: an event loop's epoll set.
///
/// A connection that owns a descriptor says what it waits for (readable, writable, both or
/// neither); the loop that registered the descriptor turns that into `Epoll.modify`.
public protocol InterestRegistry: AnyObject {
    /// Waits for `fd` to become readable and/or writable from now on.
    func setInterest(_ fd: Int32, read: Bool, write: Bool)
}
