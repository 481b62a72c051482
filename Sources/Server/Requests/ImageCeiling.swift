import Synchronization

/// The largest image reply the server can send: the largest image (or thumbnail) it stores,
/// plus room for the reply's other fields. A connection reserves this much of its buffer
/// budget for each OpenSnap or GetPhoto instead of the largest frame it accepts, so clients
/// may pipeline photos of a normal size while a reply still never exceeds its reservation.
/// It only grows: set at start from the database, raised by every image stored after.
package final class ImageCeiling: Sendable {
    private let largest = Atomic<Int>(0)
    /// Snap and photo records in front of the bytes are at most a few KiB (their strings are
    /// bounded by the decoder limits); this leaves plenty.
    static let replyOverhead = 16 * 1024

    package init(largestStoredImage: Int = 0) { largest.store(largestStoredImage, ordering: .relaxed) }

    /// Notes a stored image of `bytes` bytes; call before its id can reach any client.
    func noteStored(_ bytes: Int) {
        var current = largest.load(ordering: .relaxed)
        while bytes > current {
            let (exchanged, original) = largest.compareExchange(expected: current, desired: bytes, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Bytes to reserve for one image reply.
    var replyBytes: Int { largest.load(ordering: .relaxed) + Self.replyOverhead }
}
