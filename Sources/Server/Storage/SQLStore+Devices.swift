import SQL

/// Device tokens, keyed by their SHA-256.
extension SQLStore: DeviceStore {
    package func createDevice(userID: Int64, tokenHash: [UInt8], at: Int64) throws {
        try translatingErrors("recording a device") {
            try sql.execute(
                """
                INSERT INTO device_tokens (token_hash, user_id, created_at, last_used_at) VALUES (\(tokenHash), \(userID), \(at), \(at))
                """)
            // A user keeps their most recently used devices only, so asking again and again
            // cannot grow the table without bound.
            try sql.execute(
                """
                DELETE FROM device_tokens WHERE user_id = \(userID) AND token_hash NOT IN (
                    SELECT token_hash FROM device_tokens WHERE user_id = \(userID) ORDER BY last_used_at DESC, created_at DESC
                    LIMIT \(Self.devicesPerUser))
                """)
        }
    }

    package func deviceUser(tokenHash: [UInt8]) throws -> Int64? {
        try translatingErrors("looking up a device") {
            try sql.queryFirst("SELECT user_id FROM device_tokens WHERE token_hash = \(tokenHash)") { $0.int64("user_id") }
        }
    }

    package func touchDevice(tokenHash: [UInt8], at: Int64) throws {
        try translatingErrors("marking a device used") {
            try sql.execute("UPDATE device_tokens SET last_used_at = \(at) WHERE token_hash = \(tokenHash)")
        }
    }

    package func deleteDevices(lastUsedBefore before: Int64) throws -> Int {
        try translatingErrors("forgetting unused devices") {
            try sql.execute("DELETE FROM device_tokens WHERE last_used_at < \(before)")
        }
    }

    /// The devices a user keeps (a laptop, a phone, the lab's machines).
    static let devicesPerUser = 20
}
