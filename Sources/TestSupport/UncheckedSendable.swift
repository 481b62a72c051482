/// Moves a non-Sendable value to another thread in a test where the handoff is safe.
package struct UncheckedSendable<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}
