import Synchronization

/// The settings a reload (SIGHUP) changes while the server runs, read by the handlers at each
/// request. Everything else in `ServerConfiguration` is fixed from start to stop.
final class LiveSettings: Sendable {
    private struct Values: Sendable {
        var classCode: String?
        var snapTTLMilliseconds: Int64
        var registration: RegistrationMode
        var moderation: ModerationMode

        init(_ configuration: ServerConfiguration) {
            moderation = configuration.moderation
            classCode = configuration.classCode
            snapTTLMilliseconds = configuration.snapTTLMilliseconds
            registration = configuration.registration
        }
    }

    private let values: Mutex<Values>

    init(_ configuration: ServerConfiguration) {
        values = Mutex(Values(configuration))
    }

    /// Registration needs this code when set.
    var classCode: String? { values.withLock { $0.classCode } }
    /// How long a snap posted now lives.
    var snapTTLMilliseconds: Int64 { values.withLock { $0.snapTTLMilliseconds } }
    /// Who may register.
    var registration: RegistrationMode { values.withLock { $0.registration } }
    /// Whether students' new snaps wait for approval.
    var moderation: ModerationMode { values.withLock { $0.moderation } }

    /// Takes the reloadable settings of `configuration`.
    func update(from configuration: ServerConfiguration) {
        values.withLock { $0 = Values(configuration) }
    }
}
