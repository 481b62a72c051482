import TLS

/// Buffers shared by every connection of one event loop.
///
/// The loop handles one connection at a time, so bytes only pass through these on their way
/// between the socket, TLS and the frame decoder (sealed records go from OpenSSL to the socket). An idle connection therefore holds no buffer
/// of its own, and a busy one allocates nothing per read or write.
final class ScratchBuffers {
    /// Ciphertext read from a socket.
    let network: UnsafeMutableRawBufferPointer
    /// Plaintext decrypted from it.
    let plaintext: UnsafeMutableRawBufferPointer
    /// Small reply frames gathered into one TLS record.
    let record: UnsafeMutableRawBufferPointer

    /// The most plaintext one TLS record carries: gathering small frames up to this fills records.
    static let recordSize = TLSEngine.maxRecordPlaintext

    init(networkBytes: Int = 64 * 1024, plaintextBytes: Int = 256 * 1024) {
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
