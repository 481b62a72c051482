import Release
import Wire

/// How Hello settles the protocol version: the highest both sides speak, and what a refusal
/// says when there is none (which side is too old, and what to do about it).
enum VersionChoice {
    /// The highest version in both ranges, or nil when they do not meet.
    static func highestCommon(served: ClosedRange<UInt16>, offered: ClosedRange<UInt16>) -> UInt16? {
        served.overlaps(offered) ? min(served.upperBound, offered.upperBound) : nil
    }

    /// The message of `UNSUPPORTED_VERSION`: the versions served, those offered, and the remedy.
    static func refusal(served: ClosedRange<UInt16>, offered minimum: UInt16, _ maximum: UInt16) -> String {
        guard minimum <= maximum else {
            return "this server speaks protocol \(name(served)); the client's Hello offered \(minimum) to \(maximum), which is no range "
                + "(min_version above max_version): the client is broken"
        }
        let offered = name(minimum...maximum)
        let remedy =
            maximum < served.lowerBound
            ? "this client is too old for this server: upgrade snapshare "
                + "(version \(Release.firstRelease(speaking: served.lowerBound)) or newer)"
            : "this client is newer than this server: ask the server's operator to upgrade snapshare-server, "
                + "or use a snapshare that speaks \(name(served))"
        return "this server speaks protocol \(name(served)); the client speaks \(offered): \(remedy)"
    }

    /// "version 2" or "versions 1-2".
    static func name(_ versions: ClosedRange<UInt16>) -> String {
        versions.count == 1 ? "version \(versions.lowerBound)" : "versions \(versions.lowerBound)-\(versions.upperBound)"
    }
}
