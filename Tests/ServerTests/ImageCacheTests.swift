import Crypto
import Testing

@testable import Server

@Suite("Image cache")
struct ImageCacheUnitTests {
    private static func image(_ seed: UInt8, _ count: Int) -> (sha256: [UInt8], bytes: [UInt8]) {
        let bytes = [UInt8](repeating: seed, count: count)
        return (SHA256.hash(bytes), bytes)
    }

    @Test("a hit answers without loading; the least recently used image goes first when bytes run out")
    func leastRecentlyUsedGoesFirst() throws {
        let cache = ImageCache(capacityBytes: 8_000)
        var loads = 0
        func get(_ image: (sha256: [UInt8], bytes: [UInt8])) -> [UInt8] {
            cache.bytes(sha256: image.sha256) {
                loads += 1
                return image.bytes
            }
        }
        let a = Self.image(1, 1_000)
        let b = Self.image(2, 1_000)
        let c = Self.image(3, 1_000)
        #expect(get(a) == a.bytes && get(b) == b.bytes && loads == 2)
        #expect(get(a) == a.bytes && loads == 2, "a hit")
        // Fill to the brim: eight images of 1,000 bytes; a ninth pushes out the oldest (b, as a was used again).
        for seed in 10..<16 { _ = get(Self.image(UInt8(seed), 1_000)) }
        #expect(cache.byteCount == 8_000 && cache.count == 8)
        _ = get(c)
        #expect(cache.byteCount == 8_000 && cache.count == 8)
        loads = 0
        _ = get(a)
        #expect(loads == 0, "a was used recently and stays")
        _ = get(b)
        #expect(loads == 1, "b was the least recently used and went")
    }

    @Test("an image larger than an eighth of the cache is served but not kept; a failed load keeps nothing")
    func largeImagesAndFailuresAreNotKept() throws {
        struct Failed: Error {}
        let cache = ImageCache(capacityBytes: 8_000)
        let large = Self.image(1, 1_001)
        #expect(cache.bytes(sha256: large.sha256) { large.bytes } == large.bytes)
        #expect(cache.count == 0)
        #expect(throws: Failed.self) { try cache.bytes(sha256: Self.image(2, 10).sha256) { throw Failed() } }
        #expect(cache.count == 0 && cache.byteCount == 0)
    }

    @Test("a cache of 0 bytes or a digest that is not 32 bytes always loads")
    func disabledCacheAlwaysLoads() {
        var loads = 0
        let off = ImageCache(capacityBytes: 0)
        let image = Self.image(1, 10)
        for _ in 0..<3 {
            _ = off.bytes(sha256: image.sha256) {
                loads += 1
                return image.bytes
            }
        }
        let on = ImageCache(capacityBytes: 1_000)
        for _ in 0..<2 {
            _ = on.bytes(sha256: [1, 2, 3]) {
                loads += 1
                return image.bytes
            }
        }
        #expect(loads == 5 && on.count == 0)
    }
}
