import JSON
import Wire

/// The roster as `snapshare-server admin roster` and `snapshare admin roster` both show it: one
/// row per roster name with its display name, role, the account that claimed it (as it is called
/// now) and where it stands; or the same as JSON for scripts. One report for both programs, so an
/// instructor reads the same words offline and online.
public enum RosterReport {
    /// The column titles of `rows`.
    public static let header = ["NAME", "DISPLAY NAME", "ROLE", "ACCOUNT", "STATUS"]

    /// One row of cells per member, in the order given: the claimant is `—` while nobody has
    /// claimed the name; a signed-in status says when, to the minute (UTC).
    public static func rows(_ members: [RosterMember]) -> [[String]] {
        members.map { member in
            var status = member.status.name
            if member.status == .signedIn, member.lastSignIn > 0 { status += " " + ClassExport.readable(member.lastSignIn) + " UTC" }
            return [
                member.name, member.displayName, member.isAdmin ? "admin" : "student", member.account.isEmpty ? "—" : member.account,
                status,
            ]
        }
    }

    /// A line under the table: how many names, and how many are still to register or to sign in.
    public static func summary(_ members: [RosterMember]) -> String {
        guard !members.isEmpty else { return "The roster is empty; add names with: snapshare-server admin import-roster FILE.csv" }
        let waiting = members.filter { $0.status == .notRegistered }.count
        let oneTime = members.filter { $0.status == .oneTimePassword }.count
        return "\(members.count) name\(members.count == 1 ? "" : "s") on the roster: \(waiting) not registered, "
            + "\(oneTime) still on a one-time password."
    }

    /// A JSON array of objects: `name`, `display_name`, `role` (`student` or `admin`), `account`
    /// (null while unclaimed), `status` (`not registered`, `one-time password not yet replaced`,
    /// `signed in`, `not signed in yet`), `last_sign_in` and `added_at` (ISO 8601 UTC, `last_sign_in` null when unknown).
    public static func json(_ members: [RosterMember]) -> String {
        JSONValue.array(
            members.map {
                .object([
                    ("name", .string($0.name)), ("display_name", .string($0.displayName)),
                    ("role", .string($0.isAdmin ? "admin" : "student")),
                    ("account", $0.account.isEmpty ? .null : .string($0.account)), ("status", .string($0.status.name)),
                    ("last_sign_in", $0.lastSignIn > 0 ? .string(ClassExport.iso8601($0.lastSignIn)) : .null),
                    ("added_at", .string(ClassExport.iso8601($0.addedAt))),
                ])
            }
        ).toJSON()
    }
}
