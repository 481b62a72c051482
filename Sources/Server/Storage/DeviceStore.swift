/// Devices that logged in before: the proof a login presents to be judged by its own failure
/// budget (`LoginThrottle`) rather than its address's. Used by the login handlers and the
/// expiry purge.
///
/// Only the SHA-256 of a device token is stored, as for sessions.
package protocol DeviceStore: AnyObject {
    /// Records a device of `userID` (forgetting the user's least recently used devices beyond
    /// a few); `StoreError.notFound` when there is no such user.
    func createDevice(userID: Int64, tokenHash: [UInt8], at: Int64) throws
    /// The user a device token belongs to; nil for an unknown token. Reads only, so a flood of
    /// logins can be judged on a reader.
    func deviceUser(tokenHash: [UInt8]) throws -> Int64?
    /// Marks a device used (a successful login from it), so the purge keeps it.
    func touchDevice(tokenHash: [UInt8], at: Int64) throws
    /// Forgets devices not used since `before`; returns how many.
    func deleteDevices(lastUsedBefore before: Int64) throws -> Int
}
