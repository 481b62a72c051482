import Crypto
import Foundation
import Posix
import TLS
import Wire

/// A class for a while (`--soak`, driven by scripts/soak.sh): each of `--users` students holds
/// one connection, as the app does, and polls once a second; now and then a student posts to one
/// of the feeds, opens the newest snap it has not opened, lists the feeds, or leaves and comes
/// back (a new TLS handshake and Resume: where a certificate reloaded meanwhile shows).
///
/// What must hold, and is counted: no error of any kind, no snap opened twice by one student
/// (students also try again on purpose, and must be refused with ALREADY_VIEWED), every post the
/// server acknowledged still listed at the end, and the server's resident memory flat after the
/// warm-up. Latencies are kept per request type.
final class SoakRun: LoadConnectionDelegate {
    /// How often one student does each thing, in seconds.
    struct Pace {
        var poll = 1.0
        var post = 150.0
        var open = 15.0
        var list = 60.0
        /// A student leaves and comes back about this often (±20%).
        var reconnect = 300.0
    }

    /// One student: their connection and when they next do each thing (monotonic ns).
    private struct Student {
        var connection: LoadConnection?
        var nextPoll: UInt64 = 0
        var nextPost: UInt64 = 0
        var nextOpen: UInt64 = 0
        var nextList: UInt64 = 0
        var reconnectAt: UInt64 = 0
        /// When to connect again after leaving or failing.
        var returnAt: UInt64?
        var pollInFlight = false
        /// Between connecting and Resume's answer.
        var settingUp = false
        /// Snaps this student asked to open (so it never asks twice by accident), and those
        /// whose open was answered with the picture (the ones it tries again on purpose).
        var opened: Set<UInt64> = []
        var seen: [UInt64] = []
    }

    /// The server's memory at one moment of the run.
    struct MemorySample {
        var seconds: Double
        var rssKB: Int
    }

    static let maxOpening = 32
    static let memoryInterval: UInt64 = 10_000_000_000
    static let feeds = ["Memes", "Dog Spots", "Random"]

    private let options: BenchOptions
    private let fixture: BenchFixture
    private let context: TLSContext
    private let loop: LoadLoop
    private let server: ServerProbe?
    private let pace: Pace
    private let log: (String) -> Void
    private var random = SystemRandomNumberGenerator()

    private var students: [Student]
    /// Post payloads, one per feed.
    private let postPayloads: [[UInt8]]
    private var opening = 0
    private var start: UInt64 = 0
    private var end: UInt64 = 0
    private var stopping = false
    private var nextMemory: UInt64 = 0

    private(set) var statistics = RunStatistics()
    /// Acknowledged posts: snap id and the index of the student who posted it.
    private(set) var acknowledged: [(snapID: UInt64, poster: Int)] = []
    /// Requests that open a snap a second time on purpose: (slot << 32 | request id).
    private var deliberateReopens: Set<UInt64> = []
    private(set) var reopensRefused = 0
    private(set) var reconnections = 0
    private(set) var memory: [MemorySample] = []
    private(set) var clientCPUMicroseconds = 0.0

    init(
        options: BenchOptions, fixture: BenchFixture, context: TLSContext, loop: LoadLoop, server: ServerProbe?,
        pace: Pace = Pace(), log: @escaping (String) -> Void
    ) throws {
        self.options = options
        self.fixture = fixture
        self.context = context
        self.loop = loop
        self.server = server
        self.pace = pace
        self.log = log
        students = Array(repeating: Student(), count: fixture.tokens.count)
        let image = try BenchImage.noisePNG(approximately: options.imageBytes)
        postPayloads = Self.feeds.map { BenchFixture.payload(PostSnap(feed: $0, image: image)) }
    }

    var seconds: Double { Double(end &- start) / 1e9 }

    /// Runs the class for `--duration` seconds, then lets replies in flight arrive (10 s at most).
    func execute() {
        start = MonotonicClock.nanoseconds()
        end = start + UInt64(options.duration * 1e9)
        let cpuAtStart = ThisProcess.cpuMicroseconds
        // Everyone arrives within the first ten seconds, each with their own rhythm.
        for index in students.indices {
            students[index].returnAt = start + jitter(upTo: 10)
        }
        var drainUntil: UInt64?
        while true {
            loop.poll(timeoutMilliseconds: 5)
            let now = MonotonicClock.nanoseconds()
            sampleMemory(now: now)
            if now >= end && drainUntil == nil {
                stopping = true
                drainUntil = now + 10_000_000_000
                log("class over; waiting for replies in flight")
            }
            if let until = drainUntil {
                let waiting = students.contains { $0.connection.map { !$0.inFlight.isEmpty && !$0.isClosed } ?? false }
                if !waiting || now >= until { break }
                continue
            }
            for index in students.indices { act(index, now: now) }
        }
        let inFlight = students.reduce(0) { $0 + ($1.connection?.inFlight.count ?? 0) }
        if inFlight > 0 { statistics.countError("UNANSWERED_AT_END") }
        statistics.lostRequests += inFlight
        for index in students.indices { students[index].connection?.close() }
        clientCPUMicroseconds = ThisProcess.cpuMicroseconds - cpuAtStart
        end = min(end, MonotonicClock.nanoseconds())
    }

    // MARK: Students

    private func act(_ index: Int, now: UInt64) {
        if let returnAt = students[index].returnAt {
            guard now >= returnAt, opening < Self.maxOpening else { return }
            connect(index, now: now)
            return
        }
        guard let connection = students[index].connection, connection.phase == .ready else { return }
        if now >= students[index].reconnectAt && connection.inFlight.isEmpty {
            // Closing the laptop: a polite goodbye, back in a few seconds.
            connection.close()
            students[index].connection = nil
            students[index].returnAt = now + jitter(upTo: 5)
            return
        }
        var sent = false
        if now >= students[index].nextPoll {
            students[index].nextPoll = now + seconds(pace.poll)
            // The app sends its next poll only once the last one answered.
            if !students[index].pollInFlight {
                students[index].pollInFlight = true
                connection.send(Poll(knownVersion: connection.knownVersion), kind: .poll, now: now)
                sent = true
            }
        }
        if now >= students[index].nextPost {
            students[index].nextPost = now + seconds(pace.post, spread: 0.5)
            let feed = Int.random(in: 0..<postPayloads.count, using: &random)
            connection.send(EncodedPostSnap(payload: postPayloads[feed]), kind: .post, now: now)
            sent = true
        }
        if now >= students[index].nextOpen {
            students[index].nextOpen = now + seconds(pace.open, spread: 0.5)
            sent = open(for: index, on: connection, now: now) || sent
        }
        if now >= students[index].nextList {
            students[index].nextList = now + seconds(pace.list, spread: 0.2)
            connection.send(ListSnaps(feed: ""), kind: .list, now: now)
            sent = true
        }
        if sent { connection.flush() }
    }

    /// Opens the newest acknowledged snap this student neither posted nor opened; one time in
    /// ten, opens one already opened instead, which the server must refuse.
    private func open(for index: Int, on connection: LoadConnection, now: UInt64) -> Bool {
        if let again = students[index].seen.randomElement(using: &random), Int.random(in: 0..<10, using: &random) == 0 {
            let id = connection.send(OpenSnap(snapID: again), kind: .view, snapID: again, now: now)
            deliberateReopens.insert(UInt64(connection.slot) << 32 | UInt64(id))
            return true
        }
        for candidate in acknowledged.reversed().prefix(64)
        where candidate.poster != index && !students[index].opened.contains(candidate.snapID) {
            // Counted as opened when sent, so two opens of one snap never overlap by accident.
            students[index].opened.insert(candidate.snapID)
            connection.send(OpenSnap(snapID: candidate.snapID), kind: .view, snapID: candidate.snapID, now: now)
            return true
        }
        return false
    }

    private func connect(_ index: Int, now: UInt64) {
        students[index].returnAt = nil
        do {
            students[index].connection = try LoadConnection(
                slot: index, user: index, role: .load, host: options.host, port: options.port, context: context,
                resumeToken: fixture.tokens[index], loop: loop, delegate: self)
            students[index].settingUp = true
            opening += 1
        } catch {
            statistics.countError("CONNECT_FAILED")
            students[index].returnAt = now + 1_000_000_000
        }
    }

    func connectionReady(_ connection: LoadConnection, now: UInt64) {
        opening -= 1
        let index = connection.slot
        students[index].settingUp = false
        statistics.record(.handshake, nanoseconds: now &- connection.openedAt)
        if students[index].reconnectAt != 0 { reconnections += 1 }
        students[index].pollInFlight = false
        students[index].nextPoll = now + jitter(upTo: pace.poll)
        if students[index].nextPost == 0 {
            students[index].nextPost = now + jitter(upTo: pace.post)
            students[index].nextOpen = now + jitter(upTo: pace.open)
            students[index].nextList = now + jitter(upTo: pace.list)
        }
        students[index].reconnectAt = now + seconds(pace.reconnect, spread: 0.2)
    }

    func connection(_ connection: LoadConnection, failed reason: String, now: UInt64) {
        let index = connection.slot
        statistics.countError(reason)
        statistics.lostRequests += connection.inFlight.count
        guard students[index].connection === connection else { return }
        if students[index].settingUp {
            students[index].settingUp = false
            opening -= 1
        }
        students[index].connection = nil
        if !stopping { students[index].returnAt = now + 1_000_000_000 }
    }

    func connection(_ connection: LoadConnection, received frame: Frame, for request: PendingRequest, now: UInt64) {
        let index = connection.slot
        let key = UInt64(connection.slot) << 32 | UInt64(frame.requestID)
        let deliberate = deliberateReopens.remove(key) != nil
        if request.kind == .poll { students[index].pollInFlight = false }
        if frame.type == MessageType.error.rawValue {
            let code = (try? frame.decode(ErrorMessage.self))?.code
            if deliberate && code == .alreadyViewed {
                reopensRefused += 1
                statistics.doubleViewChecks += 1
            } else {
                statistics.countError(code?.name ?? "MALFORMED_ERROR")
            }
            return
        }
        if deliberate {
            // A snap shown twice to one student: the one thing that must never happen.
            statistics.doubleViews += 1
            return
        }
        if let problem = judge(frame, request, connection, student: index) {
            statistics.countError(problem)
            return
        }
        statistics.record(request.kind, nanoseconds: now &- request.sentAt)
    }

    /// Checks a reply; returns an error name when it is not what the request must get.
    private func judge(_ frame: Frame, _ request: PendingRequest, _ connection: LoadConnection, student: Int) -> String? {
        switch request.kind {
        case .poll:
            if let problem = statistics.notePoll(frame, on: connection) { return problem }
        case .post:
            guard let posted = try? frame.decode(SnapPosted.self) else { return "UNEXPECTED_REPLY" }
            acknowledged.append((posted.snap.id, student))
        case .view:
            guard let image = try? frame.decode(SnapImage.self) else { return "UNEXPECTED_REPLY" }
            guard image.snap.id == request.snapID else { return "WRONG_SNAP" }
            guard SHA256.hash(image.image) == image.sha256 else { return "IMAGE_HASH_MISMATCH" }
            statistics.imageBytesReceived += image.image.count
            students[student].seen.append(image.snap.id)
        case .list:
            guard let snaps = try? frame.decode(Snaps.self) else { return "UNEXPECTED_REPLY" }
            statistics.listedSnaps += snaps.snaps.count
        case .photo, .handshake:
            return "UNEXPECTED_REPLY"
        }
        return nil
    }

    // MARK: After the class

    /// Every acknowledged post, looked up in one listing of every feed; returns the missing ids.
    func missingPosts() throws -> [UInt64] {
        let check = try FixtureConnection(options: options, context: context, token: fixture.posterToken)
        defer { check.close() }
        let listed: Snaps = try check.connection.expect(try check.connection.roundTrip(ListSnaps(feed: "")))
        let present = Set(listed.snaps.map(\.id))
        return acknowledged.map(\.snapID).filter { !present.contains($0) }
    }

    /// Resident memory: after the warm-up (the mean of its last minute's samples), the most
    /// seen after it, and at the end.
    func memoryAfterWarmup() -> (warm: Int, highest: Int, last: Int)? {
        let warmup = options.warmup
        let window = memory.filter { $0.seconds > warmup - 60 && $0.seconds <= warmup }
        let later = memory.filter { $0.seconds > warmup }
        guard !window.isEmpty, let last = later.last else { return nil }
        let warm = window.reduce(0) { $0 + $1.rssKB } / window.count
        return (warm, later.map(\.rssKB).max() ?? last.rssKB, last.rssKB)
    }

    // MARK: Helpers

    private func sampleMemory(now: UInt64) {
        guard now >= nextMemory, let server, let sample = server.sample() else { return }
        nextMemory = now + Self.memoryInterval
        memory.append(MemorySample(seconds: Double(now &- start) / 1e9, rssKB: sample.rssKB))
    }

    /// `base` seconds give or take `spread` of it, in nanoseconds.
    private func seconds(_ base: Double, spread: Double = 0) -> UInt64 {
        let factor = spread == 0 ? 1 : Double.random(in: (1 - spread)...(1 + spread), using: &random)
        return UInt64(base * factor * 1e9)
    }

    /// A moment in the next `limit` seconds, in nanoseconds.
    private func jitter(upTo limit: Double) -> UInt64 {
        UInt64(Double.random(in: 0..<limit, using: &random) * 1e9)
    }
}
