import Synchronization
import Shared

/// The server-wide change version that Poll compares against. It moves on every change that
/// could alter a listing (post, view, admin change). It starts from a random value at each
/// start, so a client holding a version from before a restart sees "changed".
public final class ChangeVersion: Sendable {
    private let value: Atomic<UInt64>

    public init() {
        let seed = SecureRandom.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        value = Atomic(seed & 0x7FFF_FFFF_FFFF_0000)
    }

    public var current: UInt64 { value.load(ordering: .acquiring) }

    public func bump() { value.add(1, ordering: .releasing) }
}
