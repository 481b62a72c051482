import Testing

@testable import Crypto

@Suite("scrypt")
struct ScryptTests {
    /// The test vectors of RFC 7914, section 12 (the fourth, N = 2^20, needs 1 GiB and is left out).
    struct Vector: Sendable, CustomTestStringConvertible {
        var password: String
        var salt: String
        var n: UInt64
        var r: UInt64
        var p: UInt64
        var key: String

        var testDescription: String { "P=\"\(password)\" S=\"\(salt)\" N=\(n) r=\(r) p=\(p)" }

        static let rfc7914: [Vector] = [
            Vector(
                password: "", salt: "", n: 16, r: 1, p: 1,
                key: """
                    77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442\
                    fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
                    """),
            Vector(
                password: "password", salt: "NaCl", n: 1_024, r: 8, p: 16,
                key: """
                    fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162\
                    2eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
                    """),
            Vector(
                password: "pleaseletmein", salt: "SodiumChloride", n: 16_384, r: 8, p: 1,
                key: """
                    7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2\
                    d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887
                    """),
        ]
    }

    static let memoryCap: UInt64 = 128 << 20

    @Test("derived keys match the RFC 7914 test vectors", arguments: Vector.rfc7914)
    func derivedKeysMatchTheRFC(vector: Vector) throws {
        let key = try #require(
            Scrypt.deriveKey(
                password: vector.password, salt: Array(vector.salt.utf8),
                n: vector.n, r: vector.r, p: vector.p, keyLength: 64,
                maxMemoryBytes: Self.memoryCap))
        #expect(SHA256.hex(key) == vector.key)
    }

    @Test("a password matches its own key only")
    func aPasswordMatchesItsOwnKeyOnly() throws {
        let vector = Vector.rfc7914[0]
        let salt = Array(vector.salt.utf8)
        let key = try #require(
            Scrypt.deriveKey(
                password: "", salt: salt, n: 16, r: 1, p: 1, keyLength: 64,
                maxMemoryBytes: Self.memoryCap))
        #expect(Scrypt.matches(password: "", salt: salt, n: 16, r: 1, p: 1, expectedKey: key, maxMemoryBytes: Self.memoryCap))
        #expect(!Scrypt.matches(password: " ", salt: salt, n: 16, r: 1, p: 1, expectedKey: key, maxMemoryBytes: Self.memoryCap))
        #expect(!Scrypt.matches(password: "", salt: [1], n: 16, r: 1, p: 1, expectedKey: key, maxMemoryBytes: Self.memoryCap))
        #expect(!Scrypt.matches(password: "", salt: salt, n: 32, r: 1, p: 1, expectedKey: key, maxMemoryBytes: Self.memoryCap))
        var altered = key
        altered[63] ^= 1
        #expect(!Scrypt.matches(password: "", salt: salt, n: 16, r: 1, p: 1, expectedKey: altered, maxMemoryBytes: Self.memoryCap))
    }

    @Test("a cost beyond the memory cap is refused instead of allocated")
    func aCostBeyondTheMemoryCapIsRefused() {
        // N=16384, r=8 needs 16 MiB.
        #expect(
            Scrypt.deriveKey(
                password: "pw", salt: [1, 2, 3], n: 16_384, r: 8, p: 1, keyLength: 32,
                maxMemoryBytes: 1 << 20) == nil)
        #expect(
            !Scrypt.matches(
                password: "pw", salt: [1, 2, 3], n: 16_384, r: 8, p: 1,
                expectedKey: [UInt8](repeating: 0, count: 32), maxMemoryBytes: 1 << 20))
    }

    @Test("an N that is not a power of two is refused")
    func anNThatIsNotAPowerOfTwoIsRefused() {
        #expect(
            Scrypt.deriveKey(
                password: "pw", salt: [1], n: 1_000, r: 8, p: 1, keyLength: 32,
                maxMemoryBytes: Self.memoryCap) == nil)
    }
}
