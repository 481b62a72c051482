import Foundation
import Wire

extension Suspension {
    /// The refusal a suspended student gets for `what`: until when, and why.
    func refusal(from what: String, now: Int64) -> ErrorMessage {
        ErrorMessage(
            code: .forbidden,
            message: "you are suspended from \(what) until \(Self.utc(until)) "
                + "(in \(PostingQuota.wait(until - now))): \(reason); you can still log in and open snaps")
    }

    /// A time for people, in UTC: `2026-12-09 18:00 UTC`.
    static func utc(_ milliseconds: Int64) -> String {
        let text = Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: false))
        return text.prefix(10) + " " + text.dropFirst(11).prefix(5) + " UTC"
    }
}
