/// Moves a non-Sendable value to another thread in a test where the handoff is safe.
public struct UncheckedSendable<T>: @unchecked Sendable {
    public let value: T
    public init(_ value: T) { self.value = value }
}
