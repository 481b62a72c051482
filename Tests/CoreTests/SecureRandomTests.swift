import Testing

@testable import Crypto

@Suite("Secure random bytes")
struct SecureRandomTests {
    @Test("the requested number of bytes comes back, and two draws differ")
    func bytesHaveTheRequestedLength() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1000).count == 1000)
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    @Test("a token is 43 base64url characters without padding")
    func tokenShape() {
        let token = SecureRandom.token()
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(token.count == 43)
        #expect(token.allSatisfy(alphabet.contains))
        #expect(token != SecureRandom.token())
    }

    @Test("base64url matches the RFC 4648 vectors with padding removed")
    func base64URLVectors() {
        let vectors: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(SecureRandom.base64URL(Array(plain.utf8)) == encoded)
        }
        #expect(SecureRandom.base64URL([0xfb, 0xff, 0xbf]) == "-_-_")
    }
}
