import Client
import Foundation
import TestSupport
import Testing

/// The per-student posting quota against a real server, on a manual clock: posts in an hour and
/// bytes stored, each refused with QUOTA_EXCEEDED saying which limit and when it frees up.
@Suite struct PostingQuotaTests {
    @Test("the post over the hourly limit is refused with when it frees up; an hour later it goes in; admins are exempt")
    func postsPerHour() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock) { $0.postsPerHourQuota = 3 }
        let script = try server.registeredSession("runaway")
        for sample in 1...3 { _ = try script.post(feed: "Memes", image: TestImages.sample(sample)) }
        time.advance(byMilliseconds: 15 * 60_000)
        let refused = clientError { _ = try script.post(feed: "Memes", image: TestImages.sample(4)) }
        #expect(refused?.serverCode == .quotaExceeded)
        #expect(refused?.exitCode == 8)
        #expect(
            refused?.message == "you posted 3 snaps in the last hour, this server's limit (3 an hour); you can post again in 45m",
            "\(refused?.message ?? "")")
        #expect(try script.snaps(feed: "Memes").snaps.count == 3, "nothing of the refused post was stored")
        time.advance(byMilliseconds: 45 * 60_000)
        _ = try script.post(feed: "Memes", image: TestImages.sample(4))
        let teacher = try server.makeAdmin("teacher")
        for sample in 1...5 { _ = try teacher.post(feed: "Random", image: TestImages.sample(sample)) }
    }

    @Test("the post that would pass the stored bytes is refused; deleting one makes room")
    func storedBytes() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock) { $0.storedBytesQuota = 200_000 }
        let student = try server.registeredSession("hoarder")
        let first = try student.post(feed: "Memes", image: TestImages.sample(3))
        time.advance(byMilliseconds: 3_600_000)
        _ = try student.post(feed: "Memes", image: TestImages.sample(2))
        let refused = clientError { _ = try student.post(feed: "Memes", image: TestImages.sample(3)) }
        #expect(refused?.serverCode == .quotaExceeded)
        #expect(
            refused?.message.contains("over the 0.2 MiB each student may store; the next of your snaps expires in 6d23h") == true,
            "\(refused?.message ?? "")")
        let teacher = try server.makeAdmin("teacher")
        try teacher.deleteSnap(first.id)
        _ = try student.post(feed: "Memes", image: TestImages.sample(3))
    }

    @Test("a script posting in parallel on several connections cannot pass the hourly limit")
    func parallelPostsStayWithinTheLimit() throws {
        let server = try TestServer { $0.postsPerHourQuota = 5 }
        _ = try server.registeredSession("burst")
        var homes: [TemporaryDirectory] = []
        let sessions = try (0..<4).map { _ -> UncheckedSendable<SnapshareSession> in
            let (session, home) = try server.session()
            homes.append(home)
            _ = try session.login(username: "burst", password: "correct horse battery")
            return UncheckedSendable(session)
        }
        let results = Race.run(
            sessions.enumerated().map { index, session in
                { @Sendable in
                    (0..<4).filter { _ in (try? session.value.post(feed: "Memes", image: TestImages.sample(index + 1))) != nil }.count
                }
            })
        let accepted = results.compactMap { try? $0.get() }
        #expect(accepted.count == 4 && accepted.reduce(0, +) == 5, "\(accepted)")
        #expect(homes.count == 4)
    }
}
