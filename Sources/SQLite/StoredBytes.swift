/// Bytes still inside storage (an image): their size, and a copy straight into memory the caller
/// provides. A reply frame can then be laid out first and the image copied into its place once,
/// instead of being read into an array and copied again into the frame.
///
/// Valid only inside the call that handed it out (the store closes it afterwards).
public protocol StoredBytes {
    /// How many bytes there are.
    var count: Int { get }
    /// Copies all `count` bytes to the start of `buffer`, which must hold at least that many.
    func copy(into buffer: UnsafeMutableRawBufferPointer) throws
}

extension StoredBytes {
    /// The bytes as an array (one copy).
    public func array() throws -> [UInt8] {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try copy(into: UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }
}
