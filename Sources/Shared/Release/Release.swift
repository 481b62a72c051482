import Synchronization
import Wire

/// The product's one version number (semantic versioning), the protocol versions it speaks, and
/// the commit it was built from: what every executable's `--version` prints.
public enum Release {
    /// This release.
    public static let version = "1.0.0"

    /// The commit this binary was built from (the executables stamp it from `BuildStamp` as they
    /// start); "unknown" for a build from outside a git checkout.
    public static var commit: String {
        let commit = stamped.withLock { $0 }
        return commit.isEmpty ? "unknown" : commit
    }

    private static let stamped = Mutex("")

    /// Records the commit the running executable was built from.
    public static func stamp(commit: String) { stamped.withLock { $0 = commit } }

    /// `snapshare 1.0.0 (protocol 1-2, 61def05)`.
    public static func versionLine(program: String) -> String {
        let versions = ProtocolConstants.versions
        let spoken = versions.count == 1 ? "\(versions.lowerBound)" : "\(versions.lowerBound)-\(versions.upperBound)"
        return "\(program) \(version) (protocol \(spoken), \(commit))"
    }

    /// The first release that speaks protocol `version`, for telling someone which to install.
    /// Builds before the first numbered release (1.0.0) spoke version 1 only, so 1.0 is the
    /// oldest release to name; development builds spoke 3 before 1.1 brought 3 and 4.
    public static func firstRelease(speaking version: UInt16) -> String {
        switch version {
        case ...2: "1.0"
        case 3, 4: "1.1"
        default: "the one whose changelog introduces protocol \(version)"
        }
    }
}
