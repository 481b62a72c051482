import Wire

/// A wire id as a storage id. Ids past Int64's range cannot exist, so they get the same
/// NOT_FOUND as a missing row; and another user's pin or photo gets the same answer as one that
/// never existed: ids leak nothing.
enum StoredID {
    static func snap(_ id: UInt64) throws -> Int64 { try stored(id, else: noSnap(id)) }
    static func pin(_ id: UInt64) throws -> Int64 { try stored(id, else: noPin(id)) }
    static func photo(_ id: UInt64) throws -> Int64 { try stored(id, else: noPhoto(id)) }

    static func noSnap(_ id: UInt64) -> ErrorMessage { ErrorMessage(code: .notFound, message: "no snap \(id)") }
    static func noPin(_ id: UInt64) -> ErrorMessage { ErrorMessage(code: .notFound, message: "you have no pin \(id)") }
    static func noPhoto(_ id: UInt64) -> ErrorMessage { ErrorMessage(code: .notFound, message: "you have no photo \(id)") }

    private static func stored(_ id: UInt64, else notFound: @autoclosure () -> ErrorMessage) throws -> Int64 {
        guard let value = Int64(exactly: id) else { throw notFound() }
        return value
    }
}
