import Foundation

extension Dialog {
    /// The longest reason a report takes (the protocol's).
    static let reasonLimit = 200

    /// Asks why, then reports snap `id` to the admins (from Feeds, or over the snap opened). The
    /// dialog stays open until the server has the report: an empty reason, or one the server
    /// refuses, is said inside it.
    static func report(_ id: UInt64, app: AppModel) -> Dialog {
        Dialog(
            prompt: "Report snap \(id) to the admins", field: TextField(label: "What is wrong with it", limit: reasonLimit),
            countsCharacters: true, answer: "send the report",
            submit: { [weak app] reason, finish in
                guard let app else { return }
                let reason = reason.trimmingCharacters(in: .whitespaces)
                guard !reason.isEmpty else {
                    return finish(.refused("Nothing sent: a report needs a reason. Type what is wrong with the snap."))
                }
                app.request(
                    retry: false, answering: finish, { session throws(ClientError) in try session.report(snapID: id, reason: reason) },
                    then: { [weak app] in app?.setStatus("Reported snap \(id) to the admins; only they see who reported it") })
            }, cancel: { [weak app] in app?.setStatus("Nothing sent") })
    }
}
