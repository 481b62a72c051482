import Client
import Foundation
import Posix
import Synchronization
import TestSupport
import Testing
import Wire

/// Issue 13's fault: an instance killed under load. Two real `snapshare-server` processes share
/// one PostgreSQL database behind a real HAProxy (as `scripts/cluster.sh` runs them); students
/// post and list through HAProxy while one instance gets `kill -9`.
@Suite(
    "An instance killed under load", .serialized,
    .enabled(if: PostgresCluster.shared != nil && HAProxy.path != nil, "needs PostgreSQL and HAProxy (.ci/run installs both)"))
struct InstanceFailoverTests {
    /// What one student saw.
    struct Tally: Sendable {
        var acknowledged: [UInt64] = []
        /// Snaps of others this student was shown, each once.
        var opened: [UInt64] = []
        var opensLost = 0
        var postsLost = 0
        var listings = 0
        var listingsAfterKill = 0
        var postsAfterKill = 0
        var reconnections = 0
        var unexpected: [String] = []
    }

    @Test(
        """
        kill -9 of one of two instances: its students carry on through the other, \
        listings never fail, no acknowledged post or open is lost
        """
    )
    func killedInstance() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let directory = TemporaryDirectory("snapshare-failover")
        let certs = directory.path + "/certs"
        // The first makes the certificates; the second presents the same ones.
        // Each with its metrics port, whose GET /health HAProxy checks.
        let metricsPorts = [ServerProcess.freePort(), ServerProcess.freePort()]
        let doomed = try ServerProcess(
            dataDirectory: directory.path + "/a", certsDirectory: certs, port: ServerProcess.freePort(),
            arguments: ["--database", conninfo, "--metrics", "127.0.0.1:\(metricsPorts[0])"])
        let survivor = try ServerProcess(
            dataDirectory: directory.path + "/b", certsDirectory: certs, port: ServerProcess.freePort(),
            arguments: ["--database", conninfo, "--metrics", "127.0.0.1:\(metricsPorts[1])"])
        let proxy = try HAProxy(backendPorts: [doomed.port, survivor.port], healthPorts: metricsPorts)
        let settings = ConnectionSettings(host: "127.0.0.1", port: proxy.port, caFile: certs + "/ca.pem")

        // Six students, one connection each; least-connections puts three on each instance.
        let students = 6
        let homes = (0..<students).map { _ in TemporaryDirectory("snapshare-home") }
        let sessions = try (0..<students).map { index in
            let session = try SnapshareSession(settings: settings, state: ClientState(directory: homes[index].path)) { _ in }
            _ = try session.register(username: "student\(index)", password: "correct horse battery", classCode: "")
            return UncheckedSendable(session)
        }

        let killed = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
        // Each student signals once when it has made `rounds` rounds before the kill, and once
        // when it has posted and listed that many times since.
        let rounds = 10
        let loaded = DispatchSemaphore(value: 0)
        let progressedAfterKill = DispatchSemaphore(value: 0)
        let tallies = Mutex([Tally](repeating: Tally(), count: students))
        let image = TestImages.sample(2)
        let group = DispatchGroup()
        for index in 0..<students {
            group.enter()
            NamedThread.start("student-\(index)") {
                defer { group.leave() }
                let session = sessions[index].value
                var tally = Tally()
                var progressed = false
                var roundsBeforeKill = 0
                while !stop.load(ordering: .acquiring) {
                    let afterKill = killed.load(ordering: .acquiring)
                    do {
                        tally.acknowledged.append(try session.post(feed: "Memes", image: image).id)
                        if afterKill { tally.postsAfterKill += 1 }
                    } catch let error as ClientError where error.isConnectionLoss {
                        // In flight when its instance died: not acknowledged, and not repeated.
                        tally.postsLost += 1
                    } catch {
                        tally.unexpected.append("post: \(error)")
                    }
                    var unread: UInt64?
                    do {
                        unread = try session.snaps(feed: "Memes").snaps.first { $0.state == .unread }?.id
                        tally.listings += 1
                        if afterKill { tally.listingsAfterKill += 1 }
                    } catch {
                        tally.unexpected.append("listing: \(error)")
                    }
                    if !afterKill {
                        roundsBeforeKill += 1
                        if roundsBeforeKill == rounds { loaded.signal() }
                    }
                    if !progressed && tally.postsAfterKill >= rounds && tally.listingsAfterKill >= rounds {
                        progressed = true
                        progressedAfterKill.signal()
                    }
                    guard let unread else { continue }
                    do {
                        _ = try session.open(snapID: unread)
                        tally.opened.append(unread)
                    } catch let error as ClientError where error.isConnectionLoss {
                        // Claimed or not, it was never shown: an open is not repeated either.
                        tally.opensLost += 1
                    } catch {
                        tally.unexpected.append("open: \(error)")
                    }
                }
                tally.reconnections = session.reconnections
                tallies.withLock { $0[index] = tally }
            }
        }
        // The kill comes under load: once every student has made its rounds.
        var deadline = DispatchTime.now() + 30
        for _ in 0..<students where loaded.wait(timeout: deadline) == .timedOut {
            Issue.record("a student never made \(rounds) rounds before the kill")
        }
        doomed.killHard()
        killed.store(true, ordering: .releasing)
        // Until every student has posted and listed as often since the kill (the deadline only
        // turns a stall into a failure below).
        deadline = DispatchTime.now() + 30
        for _ in 0..<students where progressedAfterKill.wait(timeout: deadline) == .timedOut {}
        stop.store(true, ordering: .releasing)
        group.wait()

        let all = tallies.withLock { $0 }
        for (index, tally) in all.enumerated() {
            #expect(tally.unexpected.isEmpty, "student \(index): \(tally.unexpected)")
            #expect(
                tally.postsLost + tally.opensLost <= 1,
                "student \(index) lost \(tally.postsLost) posts and \(tally.opensLost) opens: only the one in flight may be")
            #expect(Set(tally.opened).count == tally.opened.count, "student \(index) was shown a snap twice")
            #expect(tally.listingsAfterKill > 0 && tally.postsAfterKill > 0, "student \(index) stalled after the kill: \(tally)")
        }
        let moved = all.filter { $0.reconnections > 0 }.count
        #expect(
            moved >= 1 && moved < students,
            "the students of the killed instance reconnected, the others did not: \(all.map(\.reconnections))")

        // Every acknowledged post is in the feed and every snap shown is read for whoever saw
        // it, asked through the instance that lived on fresh logins.
        let acknowledged = Set(all.flatMap(\.acknowledged))
        #expect(!acknowledged.isEmpty && all.contains { !$0.opened.isEmpty })
        let readerHomes = (0..<students).map { _ in TemporaryDirectory("snapshare-home") }
        for (index, tally) in all.enumerated() {
            let reader = try SnapshareSession(settings: settings, state: ClientState(directory: readerHomes[index].path)) { _ in }
            _ = try reader.login(username: "student\(index)", password: "correct horse battery")
            let listed = try reader.snaps(feed: "Memes").snaps
            #expect(acknowledged.subtracting(listed.map(\.id)).isEmpty, "acknowledged posts missing after the kill")
            let read = Set(listed.filter { $0.state == .read }.map(\.id))
            #expect(Set(tally.opened).subtracting(read).isEmpty, "student \(index): snaps shown but not recorded as opened")
            if let again = tally.opened.first {
                #expect(clientError { _ = try reader.open(snapID: again) }?.serverCode == .alreadyViewed)
            }
        }
        withExtendedLifetime((survivor, proxy, homes, readerHomes)) {}
    }
}
