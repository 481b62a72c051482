/// Buffers shared by every `TLSConnection` of one event loop.
///
/// The loop handles one connection at a time, so bytes only pass through these on their way
/// between the socket, TLS and the connection's owner (sealed records go from OpenSSL to the
/// socket). An idle connection therefore holds no buffer of its own, and a busy one allocates
/// nothing per read or write.
public final class ScratchBuffers {
    /// Ciphertext read from a socket.
    public let network: UnsafeMutableRawBufferPointer
    /// Plaintext decrypted from it.
    public let plaintext: UnsafeMutableRawBufferPointer
    /// Small queued pieces of plaintext gathered into one TLS record.
    public let record: UnsafeMutableRawBufferPointer

    /// The most plaintext one TLS record carries: gathering small pieces up to this fills records.
    public static let recordSize = TLSEngine.maxRecordPlaintext

    /// `networkBytes` is the most one read(2) takes; `plaintextBytes` the most one pass of
    /// decryption hands over.
    public init(networkBytes: Int = 64 * 1024, plaintextBytes: Int = 256 * 1024) {
        network = .allocate(byteCount: networkBytes, alignment: 16)
        plaintext = .allocate(byteCount: plaintextBytes, alignment: 16)
        record = .allocate(byteCount: Self.recordSize, alignment: 16)
    }

    deinit {
        network.deallocate()
        plaintext.deallocate()
        record.deallocate()
    }
}

/// The buffers belong to one loop thread.
@available(*, unavailable)
extension ScratchBuffers: Sendable {}
