/// Whether students' new snaps wait for an admin (`--moderation`): `off`, they appear at once;
/// `queue`, each waits in the admins' queue, seen only by its poster, until approved.
package enum ModerationMode: String, Sendable, CaseIterable {
    case off, queue
}
