import Crypto
import Foundation

/// Hashes and verifies passwords with scrypt (`Scrypt`, in Crypto).
///
/// Encoding: `scrypt$<N>$<r>$<p>$<salt base64>$<key base64>` with a 16-byte random salt and a
/// 32-byte key. Verification takes the cost from the encoding (so stored hashes survive a change
/// of defaults) but only within bounds checked before any work: a tampered row cannot make the
/// server allocate gigabytes, and a hash weaker than this hasher's own cost is refused, so a
/// cheap test configuration can never be accepted by a production hasher.
package struct PasswordHasher: Sendable {
    /// scrypt's cost parameters.
    package struct Cost: Sendable, Equatable {
        /// CPU/memory cost; a power of two.
        package var n: UInt64
        /// Block size.
        package var r: UInt64
        /// Parallelism.
        package var p: UInt64

        package init(n: UInt64, r: UInt64, p: UInt64) {
            self.n = n
            self.r = r
            self.p = p
        }

        /// What the server uses: N=16384, r=8, p=1 (16 MiB, tens of milliseconds).
        package static let production = Cost(n: 16_384, r: 8, p: 1)

        /// Memory scrypt needs for these parameters (V is 128·r·N bytes, B is 128·r·p).
        var memoryBytes: UInt64 { 128 * r * (n + p + 2) }
    }

    /// Why hashing failed (only when OpenSSL itself fails).
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Largest accepted N, r and p, and the memory cap handed to OpenSSL.
    static let maximumN: UInt64 = 1 << 17
    static let maximumR: UInt64 = 32
    static let maximumP: UInt64 = 16
    static let maximumMemoryBytes: UInt64 = 128 << 20
    static let saltLength = 16
    static let keyLength = 32

    /// The cost of new hashes.
    package let cost: Cost
    /// The least cost `verify` accepts. When a release raises `cost`, this stays at the old one, so
    /// the hashes stored before verify still and are made again at the new cost on the next login
    /// (`needsRehash`).
    package let minimum: Cost

    /// The production hasher.
    package init() {
        self.cost = .production
        self.minimum = .production
    }

    /// A hasher with an explicit cost (tests use a cheaper one; it must be asked for by name),
    /// accepting nothing weaker than `minimum` (by default the cost itself).
    package init(cost: Cost, minimum: Cost? = nil) {
        precondition(Self.isAcceptable(cost, minimum: nil), "scrypt cost out of bounds: \(cost)")
        self.cost = cost
        self.minimum = minimum ?? cost
    }

    /// A new salted hash of `password`, encoded for storage.
    package func hash(password: String) throws -> String {
        let salt = SecureRandom.bytes(Self.saltLength)
        guard
            let key = Scrypt.deriveKey(
                password: password, salt: salt, n: cost.n, r: cost.r, p: cost.p,
                keyLength: Self.keyLength, maxMemoryBytes: Self.maximumMemoryBytes)
        else {
            throw Failure(description: "EVP_PBE_scrypt failed")
        }
        return "scrypt$\(cost.n)$\(cost.r)$\(cost.p)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// True only when `encoded` is well formed, its cost is within bounds and not below this
    /// hasher's minimum, and `password` derives the same key (compared in constant time).
    func verify(password: String, encoded: String) -> Bool {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0] == "scrypt",
            let n = Self.decimal(fields[1]), let r = Self.decimal(fields[2]), let p = Self.decimal(fields[3]),
            let salt = Data(base64Encoded: String(fields[4])), let expected = Data(base64Encoded: String(fields[5]))
        else { return false }
        let stored = Cost(n: n, r: r, p: p)
        guard Self.isAcceptable(stored, minimum: minimum),
            (8...64).contains(salt.count), (16...64).contains(expected.count)
        else { return false }
        return Scrypt.matches(
            password: password, salt: [UInt8](salt), n: stored.n, r: stored.r, p: stored.p,
            expectedKey: [UInt8](expected), maxMemoryBytes: Self.maximumMemoryBytes)
    }

    /// True when `encoded` was made with a different cost than this hasher's: the login that proves
    /// the password stores it again at this cost (`AccountHandlers.login`).
    func needsRehash(_ encoded: String) -> Bool {
        let fields = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 6 else { return true }
        return Self.decimal(fields[1]) != cost.n || Self.decimal(fields[2]) != cost.r || Self.decimal(fields[3]) != cost.p
    }

    // MARK: Internals

    /// Bounds checked before any allocation: N a power of two in 2...2^17, r in 1...32, p in 1...16,
    /// at most 128 MiB, and (when given) no weaker than `minimum` in any parameter.
    static func isAcceptable(_ cost: Cost, minimum: Cost?) -> Bool {
        guard cost.n >= 2, cost.n <= maximumN, cost.n & (cost.n - 1) == 0,
            (1...maximumR).contains(cost.r), (1...maximumP).contains(cost.p),
            cost.memoryBytes <= maximumMemoryBytes
        else { return false }
        if let minimum {
            return cost.n >= minimum.n && cost.r >= minimum.r && cost.p >= minimum.p
        }
        return true
    }

    /// Plain decimal digits only (no sign, no spaces), at most 10 of them.
    static func decimal(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return UInt64(text)
    }
}
