import Foundation
import Testing

@testable import Server

@Suite("Password hasher")
struct PasswordHasherTests {
    /// Cheap cost for tests; asked for by name, never a default.
    let fast = PasswordHasher(cost: PasswordHasher.Cost(n: 1_024, r: 8, p: 1))

    @Test("the production hasher uses N=16384, r=8, p=1 with a 16-byte salt and a 32-byte key")
    func productionEncoding() throws {
        let hasher = PasswordHasher()
        #expect(hasher.cost == PasswordHasher.Cost(n: 16_384, r: 8, p: 1))
        let encoded = try hasher.hash(password: "correct horse")
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 6)
        #expect(Array(fields.prefix(4)) == ["scrypt", "16384", "8", "1"])
        #expect(Data(base64Encoded: fields[4])?.count == 16)
        #expect(Data(base64Encoded: fields[5])?.count == 32)
        #expect(hasher.verify(password: "correct horse", encoded: encoded))
        #expect(!hasher.verify(password: "correct horsf", encoded: encoded))
        #expect(!hasher.needsRehash(encoded))
    }

    @Test("a hash verifies its own password only, and salts make every hash different")
    func roundTrip() throws {
        for password in ["", "hunter2", "pässwörd 🔑", String(repeating: "x", count: 1_000)] {
            let first = try fast.hash(password: password)
            let second = try fast.hash(password: password)
            #expect(first != second)
            #expect(fast.verify(password: password, encoded: first))
            #expect(fast.verify(password: password, encoded: second))
            #expect(!fast.verify(password: password + " ", encoded: first))
        }
    }

    @Test("malformed encodings are rejected")
    func malformedEncodings() throws {
        let good = try fast.hash(password: "pw")
        let fields = good.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        func with(_ index: Int, _ value: String) -> String {
            var copy = fields
            copy[index] = value
            return copy.joined(separator: "$")
        }
        let malformed = [
            "", "scrypt", "bcrypt$1024$8$1$AAAA$BBBB", good + "$", "$" + good,
            with(0, "SCRYPT"), with(1, ""), with(1, "+1024"), with(1, " 1024"), with(1, "1024.0"), with(1, "-1024"),
            with(2, "x"), with(3, ""), with(4, "not base64!"), with(4, ""), with(5, "%%%"), with(5, ""),
            with(4, Data(count: 4).base64EncodedString()), // salt too short
            with(5, Data(count: 8).base64EncodedString()), // key too short
            with(5, Data(count: 100).base64EncodedString()), // key too long
        ]
        for encoded in malformed {
            #expect(!fast.verify(password: "pw", encoded: encoded), "\(encoded)")
        }
        #expect(fast.verify(password: "pw", encoded: good))
    }

    @Test("absurd or weakened parameters are refused before any work")
    func parameterBounds() throws {
        let good = try fast.hash(password: "pw")
        var fields = good.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        let started = Date()
        for (n, r, p) in [
            ("1073741824", "8", "1"), ("4294967296", "8", "1"), ("99999999999", "8", "1"),
            ("1000", "8", "1"), ("1024", "0", "1"), ("1024", "1000000", "1"), ("1024", "8", "0"),
            ("1024", "8", "1000"), ("131072", "32", "1"), ("0", "8", "1"), ("1", "8", "1"),
        ] {
            fields[1] = n
            fields[2] = r
            fields[3] = p
            #expect(!fast.verify(password: "pw", encoded: fields.joined(separator: "$")), "N=\(n) r=\(r) p=\(p)")
        }
        #expect(Date().timeIntervalSince(started) < 2)
        // A hash cheaper than the hasher's own cost (a test hash in a production file) is refused.
        #expect(!PasswordHasher().verify(password: "pw", encoded: good))
        #expect(PasswordHasher().needsRehash(good))
        // The other way round is fine: stronger than the minimum.
        let strong = try PasswordHasher().hash(password: "pw")
        #expect(fast.verify(password: "pw", encoded: strong))
    }
}
