import CommandLineParsing
import Wire

/// The per-student posting quota (`--quota-posts-per-hour`, `--quota-bytes`): a class never
/// reaches it, a runaway script does. Admins are exempt. Judged inside the post's transaction.
struct PostingQuota: Sendable {
    static let window: Int64 = 3_600_000

    var postsPerHour: Int
    var storedBytes: Int64

    init(_ configuration: ServerConfiguration) {
        postsPerHour = configuration.postsPerHourQuota
        storedBytes = configuration.storedBytesQuota
    }

    /// The refusal for a post of `imageBytes` at `now` by a student with `usage`, or nil when it fits.
    func refusal(for usage: PostingUsage, imageBytes: Int, now: Int64) -> ErrorMessage? {
        if usage.recentPosts >= postsPerHour {
            let frees = (usage.oldestRecentPost ?? now) + Self.window - now
            return ErrorMessage(
                code: .quotaExceeded,
                message: "you posted \(usage.recentPosts) snaps in the last hour, this server's limit "
                    + "(\(postsPerHour) an hour); you can post again in \(Self.wait(frees))")
        }
        if usage.storedBytes + Int64(imageBytes) > storedBytes {
            let next = usage.nextExpiry.map { "; the next of your snaps expires in \(Self.wait($0 - now))" } ?? ""
            return ErrorMessage(
                code: .quotaExceeded,
                message: "your snaps take \(Self.megabytes(usage.storedBytes)) and this picture "
                    + "\(Self.megabytes(Int64(imageBytes))), over the \(Self.megabytes(storedBytes)) each student may store\(next) "
                    + "(or ask your instructor)")
        }
        return nil
    }

    /// A wait rounded up to whole seconds, as `14m3s`.
    static func wait(_ milliseconds: Int64) -> String {
        TimeSpan(milliseconds: max(1, (milliseconds + 999) / 1000) * 1000).description
    }

    static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
