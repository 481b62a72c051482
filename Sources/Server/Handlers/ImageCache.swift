import Synchronization

/// Hot images in memory, by their SHA-256, bounded in bytes (least recently used go first).
///
/// Why: a photo or snap reply used to copy its 100 KB image out of SQLite's pages into the reply
/// frame; with the image here, the reply is its small head plus these bytes, shared, and the one
/// copy left is OpenSSL's into the record it seals (docs/benchmarks.md has the measured gain).
///
/// Why by SHA-256 and safe without invalidation: the cache only ever answers "the bytes whose
/// SHA-256 is this". Every reply first finds its row in the database, in the transaction that
/// checks ownership, expiry and the view-once claim, and takes the digest from that row; a deleted
/// photo or snap therefore finds no row and nothing is read from here. The digests are computed by
/// the server from the bytes it stores (posts and album downloads), never taken from a client, so
/// equal digests mean equal bytes: albums or snaps that share an image share one entry.
final class ImageCache: Sendable {
    /// An image's SHA-256 as four words (cheaper to hash and compare than an array).
    struct Key: Hashable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        /// Nil unless `sha256` is 32 bytes.
        init?(_ sha256: [UInt8]) {
            guard sha256.count == 32 else { return nil }
            func word(_ at: Int) -> UInt64 { sha256[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) } }
            words = (word(0), word(8), word(16), word(24))
        }

        static func == (a: Key, b: Key) -> Bool { a.words == b.words }
        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    /// The most bytes the cache holds.
    let capacity: Int
    private let entries: Mutex<Entries>

    /// A cache of at most `capacityBytes`; no single image larger than an eighth of it is kept,
    /// so one large snap cannot push out every hot photo. 0 turns caching off.
    init(capacityBytes: Int) {
        capacity = max(0, capacityBytes)
        entries = Mutex(Entries())
    }

    /// The bytes whose SHA-256 is `sha256`: from memory when they are there, else from `load`
    /// (one copy out of storage), kept for the next reply when they fit.
    func bytes(sha256: [UInt8], load: () throws -> [UInt8]) rethrows -> [UInt8] {
        guard capacity > 0, let key = Key(sha256) else { return try load() }
        if let hit = entries.withLock({ $0.touch(key) }) { return hit }
        let loaded = try load()
        if loaded.count <= capacity / 8 {
            entries.withLock { $0.insert(key, loaded, capacity: capacity) }
        }
        return loaded
    }

    /// Bytes held now (for tests and stats).
    var byteCount: Int { entries.withLock { $0.byteCount } }
    /// Images held now.
    var count: Int { entries.withLock { $0.slots.count - $0.free.count } }
}

/// The entries and their order of use: a doubly linked list over slot indices, most recent at
/// `head`, so a hit, an insert and an eviction each cost O(1).
private struct Entries {
    struct Slot {
        var key: ImageCache.Key
        var bytes: [UInt8]
        var newer: Int
        var older: Int
    }

    var slots: [Slot] = []
    var free: [Int] = []
    var index: [ImageCache.Key: Int] = [:]
    var head = -1
    var tail = -1
    var byteCount = 0

    mutating func touch(_ key: ImageCache.Key) -> [UInt8]? {
        guard let slot = index[key] else { return nil }
        unlink(slot)
        pushFront(slot)
        return slots[slot].bytes
    }

    mutating func insert(_ key: ImageCache.Key, _ bytes: [UInt8], capacity: Int) {
        // Two threads may load the same image at once; the first to arrive keeps it.
        guard index[key] == nil else { return }
        while byteCount + bytes.count > capacity, tail >= 0 { evict(tail) }
        let slot: Int
        let entry = Slot(key: key, bytes: bytes, newer: -1, older: -1)
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        index[key] = slot
        byteCount += bytes.count
        pushFront(slot)
    }

    private mutating func evict(_ slot: Int) {
        unlink(slot)
        index[slots[slot].key] = nil
        byteCount -= slots[slot].bytes.count
        slots[slot].bytes = []
        free.append(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { head = older }
        if older >= 0 { slots[older].newer = newer } else { tail = newer }
    }

    private mutating func pushFront(_ slot: Int) {
        slots[slot].newer = -1
        slots[slot].older = head
        if head >= 0 { slots[head].newer = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}
