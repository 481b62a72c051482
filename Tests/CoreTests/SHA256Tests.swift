import Testing

@testable import Crypto

@Suite("SHA-256")
struct SHA256Tests {
    @Test("the digests of the standard test vectors match FIPS 180-2")
    func knownVectors() {
        #expect(
            SHA256.hex(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(SHA256.hash(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("any collection of bytes hashes like the same bytes in an array")
    func collectionsHashLikeArrays() {
        let bytes = Array("snapshare".utf8)
        #expect(SHA256.hash("snapshare".utf8) == SHA256.hash(bytes))
        #expect(SHA256.hash(bytes[2...]) == SHA256.hash(Array(bytes[2...])))
        #expect(SHA256.hash(bytes.reversed()) == SHA256.hash(Array(bytes.reversed())))
        #expect(bytes.withUnsafeBytes { SHA256.hash($0) } == SHA256.hash(bytes))
    }

    @Test("hex is lowercase with two digits per byte")
    func hexFormatting() {
        #expect(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(SHA256.hex([UInt8]()) == "")
    }
}
