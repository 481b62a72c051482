/// Bytes still inside storage (an image), read only when asked for.
///
/// Why not read them up front: a server that already holds the image in memory (found by the
/// digest its row names) never needs them, and on SQLite opening a blob costs a small compiled
/// program of its own each time.
///
/// Valid only inside the call that handed it out, in the transaction that found its row.
public protocol StoredBytes {
    /// The bytes as a new array: one copy, straight from storage.
    func array() throws -> [UInt8]
}
