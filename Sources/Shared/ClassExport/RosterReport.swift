import Foundation
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
            return [member.name, member.displayName, member.isAdmin ? "admin" : "student", member.account.isEmpty ? "—" : member.account, status]
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
        struct Row: Encodable {
            let name: String, display_name: String, role: String, account: String?, status: String
            let last_sign_in: String?, added_at: String
            func encode(to encoder: any Encoder) throws {
                // Nulls written out, so every row has every key.
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(name, forKey: .name); try container.encode(display_name, forKey: .display_name)
                try container.encode(role, forKey: .role); try container.encode(account, forKey: .account)
                try container.encode(status, forKey: .status); try container.encode(last_sign_in, forKey: .last_sign_in)
                try container.encode(added_at, forKey: .added_at)
            }
            enum Key: String, CodingKey { case name, display_name, role, account, status, last_sign_in, added_at }
        }
        let rows = members.map {
            Row(name: $0.name, display_name: $0.displayName, role: $0.isAdmin ? "admin" : "student", account: $0.account.isEmpty ? nil : $0.account,
                status: $0.status.name, last_sign_in: $0.lastSignIn > 0 ? ClassExport.iso8601($0.lastSignIn) : nil,
                added_at: ClassExport.iso8601($0.addedAt))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(rows)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
