import Crypto
import Posix
import TLS
import Wire

/// Runs one scenario's load on a `LoadLoop`: opens the connections, warms up, measures for
/// `--duration` seconds (or `--operations` replies), drains, and reports.
///
/// Everything runs on the calling thread. Each reply immediately refills its connection's
/// pipeline; the refills of one readiness event go out in one TLS write.
final class LoadRun: LoadConnectionDelegate {
    enum Stage { case opening, warmup, measuring, draining, done }

    /// Connections being set up at once: enough to keep the server busy, few enough that none
    /// waits in the accept queue long enough to hit the server's handshake timeout.
    static let maxOpening = 64
    /// Interval between the idle scenario's probe polls, and after the load how long to wait
    /// for replies still in flight.
    static let probeInterval: UInt64 = 1_000_000
    static let drainLimit: UInt64 = 10_000_000_000

    private let options: BenchOptions
    private let fixture: BenchFixture
    private let context: TLSContext
    private let loop: LoadLoop
    private let server: ServerProbe?
    private let database: ServerProbe?
    private let log: (String) -> Void

    private(set) var stage: Stage = .opening
    private(set) var statistics = RunStatistics()
    /// Who each slot is; a slot holds one connection at a time.
    private let plan: [(user: Int, role: ConnectionRole)]
    private var live: [LoadConnection?]
    /// Slots whose requests are paced by the clock rather than by replies.
    private let pacedSlots: [Int]
    private var nextToOpen = 0
    private var opening = 0
    private var readyCount = 0
    private var failedSlots = 0

    private var warmupEnd: UInt64 = 0
    private var measureStart: UInt64 = 0
    private var measureEnd: UInt64 = 0
    private var drainDeadline: UInt64 = 0
    private var measuredIssued = 0
    private(set) var serverAtStart: ProcessSample?
    private(set) var serverAtEnd: ProcessSample?
    private(set) var databaseAtStart: ProcessSample?
    private(set) var databaseAtEnd: ProcessSample?
    private(set) var clientCPUAtStart = 0.0
    private(set) var clientCPUAtEnd = 0.0

    /// Per user: the index of the next fixture snap to open.
    private var viewCursor: [Int]
    /// (user << 32 | snap) for every successful open, to catch a second success.
    private(set) var opened: Set<UInt64> = []
    /// Successful opens in order, for the recheck after the run.
    private(set) var openedPairs: [(user: Int, snapID: UInt64)] = []
    private var viewsJudged = 0
    private var photosJudged = 0
    private var snapsRanOut = false

    private var nextPaced: UInt64 = 0
    /// Slots below this may be opened now: the idle scenario opens in steps to weigh each.
    private var openLimit: Int
    private var settleUntil: UInt64?
    /// The idle scenario's memory marks: probe only, half the idle connections, all of them.
    private(set) var idleMarks: [IdleMark] = []

    init(
        options: BenchOptions, fixture: BenchFixture, context: TLSContext, loop: LoadLoop,
        server: ServerProbe?, database: ServerProbe? = nil, log: @escaping (String) -> Void
    ) {
        self.options = options
        self.fixture = fixture
        self.context = context
        self.loop = loop
        self.server = server
        self.database = database
        self.log = log
        let users = max(1, fixture.tokens.count)
        var plan: [(user: Int, role: ConnectionRole)] = []
        switch options.scenario {
        case .idle:
            plan.append((0, .probe))
            plan += (0..<options.connections).map { ($0 % users, .idle) }
        default:
            plan += (0..<options.connections).map { ($0 % users, .load) }
            if options.scenario == .poll && options.newSnapsPerSecond > 0 { plan.append((0, .trickle)) }
        }
        self.plan = plan
        openLimit = options.scenario == .idle ? 1 : plan.count
        pacedSlots = plan.indices.filter { plan[$0].role == .probe || plan[$0].role == .trickle }
        live = Array(repeating: nil, count: plan.count)
        viewCursor = Array(repeating: 0, count: users)
    }

    var measuredSeconds: Double { Double(measureEnd &- measureStart) / 1e9 }

    /// Runs the whole load; returns when the run is done.
    func execute() throws {
        if options.scenario == .handshake {
            // Every operation opens its own connection: there is nothing to set up first.
            startWarmup(now: MonotonicClock.nanoseconds())
        }
        while stage != .done {
            loop.poll(timeoutMilliseconds: 1)
            try tick(now: MonotonicClock.nanoseconds())
        }
    }

    // MARK: Stages

    private func tick(now: UInt64) throws {
        switch stage {
        case .opening:
            openMore(now: now)
            guard nextToOpen == openLimit && opening == 0 else { break }
            guard readyCount > 0 else { throw BenchError("no connection could be set up: \(statistics.errors)") }
            if options.scenario == .idle {
                // Let the server settle, weigh it, then open the next step.
                guard let until = settleUntil else {
                    settleUntil = now + 300_000_000
                    break
                }
                guard now >= until else { break }
                settleUntil = nil
                let held = live.reduce(0) { $0 + ($1?.role == .idle && $1?.phase == .ready ? 1 : 0) }
                idleMarks.append(IdleMark(connections: held, server: server?.sample()))
                if openLimit < plan.count {
                    openLimit = openLimit == 1 ? 1 + (plan.count - 1) / 2 : plan.count
                    log("opening idle connections \(nextToOpen) to \(openLimit - 1)")
                    break
                }
            }
            startWarmup(now: now)
        case .warmup:
            if now >= warmupEnd { startMeasuring(now: now) }
        case .measuring:
            if options.operations == nil && now >= measureEnd { startDraining(now: now) }
            if snapsRanOut, !anyLoadInFlight { startDraining(now: now) }
        case .draining:
            if !anyLoadInFlight || now >= drainDeadline { finish() }
        case .done:
            break
        }
        pacedRequests(now: now)
        if options.scenario == .handshake, stage == .warmup || stage == .measuring { openMore(now: now) }
    }

    private func startWarmup(now: UInt64) {
        stage = .warmup
        warmupEnd = now + UInt64(options.warmup * 1e9)
        for case let connection? in live where connection.role == .load {
            fill(connection, now: now)
            connection.flush()
        }
        if options.warmup == 0 { startMeasuring(now: now) }
    }

    private func startMeasuring(now: UInt64) {
        stage = .measuring
        statistics = RunStatistics()
        opened.removeAll()
        openedPairs.removeAll()
        measureStart = now
        measureEnd = now + UInt64(options.duration * 1e9)
        serverAtStart = server?.sample()
        databaseAtStart = database?.sample()
        clientCPUAtStart = ThisProcess.cpuMicroseconds
        log(options.operations.map { "measuring \($0) operations" } ?? "measuring for \(options.duration) s")
    }

    private func startDraining(now: UInt64) {
        guard stage == .measuring else { return }
        measureEnd = now
        serverAtEnd = server?.sample()
        databaseAtEnd = database?.sample()
        clientCPUAtEnd = ThisProcess.cpuMicroseconds
        stage = .draining
        drainDeadline = now + Self.drainLimit
    }

    private func finish() {
        stage = .done
        for case let connection? in live { connection.close() }
        live = Array(repeating: nil, count: live.count)
    }

    private var anyLoadInFlight: Bool {
        live.contains { connection in connection.map { !$0.inFlight.isEmpty && !$0.isClosed } ?? false }
    }

    // MARK: Connections

    /// Opens connections for empty slots, at most `maxOpening` setting up at once.
    private func openMore(now: UInt64) {
        if options.scenario == .handshake {
            for slot in live.indices where live[slot] == nil && opening < Self.maxOpening {
                open(slot: slot)
            }
            return
        }
        while nextToOpen < openLimit && opening < Self.maxOpening {
            open(slot: nextToOpen)
            nextToOpen += 1
        }
    }

    private func open(slot: Int) {
        let (user, role) = plan[slot]
        let token = options.scenario.needsLogin ? (role == .trickle ? fixture.posterToken : fixture.tokens[user]) : nil
        do {
            live[slot] = try LoadConnection(
                slot: slot, user: user, role: role, host: options.host, port: options.port,
                context: context, resumeToken: token, loop: loop, delegate: self)
            opening += 1
        } catch {
            statistics.countError("CONNECT_FAILED")
            if options.scenario != .handshake { failedSlots += 1 }
        }
    }

    func connectionReady(_ connection: LoadConnection, now: UInt64) {
        opening -= 1
        if options.scenario == .handshake {
            // One operation: connect, TLS handshake, Hello, Welcome. Leave politely and go again.
            if stage == .measuring { statistics.record(.handshake, nanoseconds: now - connection.openedAt) }
            connection.close()
            live[connection.slot] = nil
            checkOperationsTarget(now: now)
            if stage == .warmup || stage == .measuring { open(slot: connection.slot) }
            return
        }
        readyCount += 1
        if stage == .warmup || stage == .measuring { fill(connection, now: now) }
    }

    func connection(_ connection: LoadConnection, failed reason: String, now: UInt64) {
        statistics.countError(reason)
        statistics.lostRequests += connection.inFlight.count
        if connection.phase != .ready && live[connection.slot] === connection && stage != .draining {
            // Failed during setup.
            opening -= 1
            if options.scenario != .handshake { failedSlots += 1 }
        }
        if live[connection.slot] === connection { live[connection.slot] = nil }
        if options.scenario == .handshake, stage == .warmup || stage == .measuring, statistics.operations == 0,
            statistics.errorCount > 10_000
        {
            stage = .done
        }
    }

    // MARK: Requests

    /// Tops up `connection`'s pipeline to `--depth` requests in flight.
    private func fill(_ connection: LoadConnection, now: UInt64) {
        guard connection.role == .load, connection.phase == .ready, stage == .warmup || stage == .measuring else { return }
        while connection.inFlight.count < options.depth {
            if stage == .measuring, let limit = options.operations, measuredIssued >= limit { return }
            guard issue(on: connection, now: now) else { return }
            if stage == .measuring { measuredIssued += 1 }
        }
    }

    /// Sends the scenario's next request; false when this connection has nothing left to ask.
    private func issue(on connection: LoadConnection, now: UInt64) -> Bool {
        let kind: OperationKind
        switch options.scenario {
        case .poll, .idle: kind = .poll
        case .list: kind = .list
        case .post: kind = .post
        case .view: kind = .view
        case .photo: kind = .photo
        case .mixed:
            // A lecture hall: of every 20 requests, 18 polls, one post, one open.
            switch connection.operationsIssued % 20 {
            case 0: kind = .post
            case 10: kind = viewCursor[connection.user] < fixture.viewSnapIDs.count ? .view : .poll
            default: kind = .poll
            }
        case .handshake:
            return false
        }
        switch kind {
        case .poll:
            connection.send(Poll(knownVersion: connection.knownVersion), kind: .poll, now: now)
        case .list:
            connection.send(ListSnaps(feed: BenchFixture.listFeed), kind: .list, now: now)
        case .post:
            connection.send(EncodedPostSnap(payload: fixture.postPayload), kind: .post, now: now)
        case .view:
            let cursor = viewCursor[connection.user]
            guard cursor < fixture.viewSnapIDs.count else {
                snapsRanOut = true
                return false
            }
            viewCursor[connection.user] = cursor + 1
            let snapID = fixture.viewSnapIDs[cursor]
            connection.send(OpenSnap(snapID: snapID), kind: .view, snapID: snapID, now: now)
        case .photo:
            let photos = fixture.photoIDs[connection.user]
            guard !photos.isEmpty else { return false }
            let photoID = photos[(connection.operationsIssued &+ connection.slot) % photos.count]
            connection.send(GetPhoto(photoID: photoID, variant: .full), kind: .photo, snapID: photoID, now: now)
        case .handshake:
            return false
        }
        connection.operationsIssued += 1
        return true
    }

    /// The idle scenario's probe polls once a millisecond; the poll scenario's trickle posts `R` a second.
    private func pacedRequests(now: UInt64) {
        guard now >= nextPaced, stage != .done else { return }
        for slot in pacedSlots {
            guard let connection = live[slot], connection.phase == .ready, connection.inFlight.isEmpty else { continue }
            switch connection.role {
            case .probe:
                nextPaced = now + Self.probeInterval
                connection.send(Poll(knownVersion: connection.knownVersion), kind: .poll, now: now)
            case .trickle:
                nextPaced = now + 1_000_000_000 / UInt64(max(options.newSnapsPerSecond, 1))
                connection.send(EncodedPostSnap(payload: fixture.tinyPostPayload), kind: .post, now: now)
            case .load, .idle:
                continue
            }
            connection.flush()
        }
    }

    func connection(_ connection: LoadConnection, received frame: Frame, for request: PendingRequest, now: UInt64) {
        let measuring = stage == .measuring && connection.role != .trickle
        if frame.type == MessageType.error.rawValue {
            let code = (try? frame.decode(ErrorMessage.self))?.code.name ?? "MALFORMED_ERROR"
            statistics.countError(connection.role == .trickle ? "TRICKLE_" + code : code)
        } else if let problem = judge(frame, request, connection) {
            statistics.countError(problem)
        } else if measuring {
            statistics.record(request.kind, nanoseconds: now &- request.sentAt)
            checkOperationsTarget(now: now)
        }
        fill(connection, now: now)
    }

    private func checkOperationsTarget(now: UInt64) {
        if stage == .measuring, let limit = options.operations, statistics.operations >= limit { startDraining(now: now) }
    }

    /// Checks a reply; returns an error name when it is not what the request must get.
    private func judge(_ frame: Frame, _ request: PendingRequest, _ connection: LoadConnection) -> String? {
        switch request.kind {
        case .poll:
            if let problem = statistics.notePoll(frame, on: connection) { return problem }
        case .list:
            guard frame.type == MessageType.snaps.rawValue, frame.payloadCount >= 12 else { return "UNEXPECTED_REPLY" }
            // version: u64, then the array's u32 count.
            statistics.listedSnaps += Int(Self.bigEndian(frame, at: 8, bytes: 4))
        case .post:
            guard frame.type == MessageType.snapPosted.rawValue else { return "UNEXPECTED_REPLY" }
        case .view:
            guard frame.type == MessageType.snapImage.rawValue, frame.payloadCount >= 8 else { return "UNEXPECTED_REPLY" }
            let snapID = Self.bigEndian(frame, at: 0, bytes: 8)
            guard snapID == request.snapID else { return "WRONG_SNAP" }
            statistics.imageBytesReceived += frame.payloadCount
            // A second success for the same (user, snap) breaks the one promise Snapshare makes.
            if !opened.insert(UInt64(connection.user) << 32 | snapID).inserted { statistics.doubleViews += 1 }
            openedPairs.append((connection.user, snapID))
            viewsJudged += 1
            // Hash one image in eight: the check is the client's job, but it costs the cores we share.
            if viewsJudged % 8 == 1 {
                guard let image = try? frame.decode(SnapImage.self), SHA256.hash(image.image) == image.sha256 else {
                    return "IMAGE_HASH_MISMATCH"
                }
            }
        case .photo:
            guard frame.type == MessageType.photoImage.rawValue, frame.payloadCount >= 8 else { return "UNEXPECTED_REPLY" }
            guard Self.bigEndian(frame, at: 0, bytes: 8) == request.snapID else { return "WRONG_PHOTO" }
            statistics.imageBytesReceived += frame.payloadCount
            photosJudged += 1
            if photosJudged % 8 == 1 {
                guard let photo = try? frame.decode(PhotoImage.self), SHA256.hash(photo.image) == photo.sha256 else {
                    return "IMAGE_HASH_MISMATCH"
                }
            }
        case .handshake:
            break
        }
        return nil
    }

    /// A big-endian integer of `count` bytes at `offset` of the frame's payload.
    private static func bigEndian(_ frame: Frame, at offset: Int, bytes count: Int) -> UInt64 {
        frame.withUnsafePayloadBytes { payload in
            var value: UInt64 = 0
            for i in offset..<(offset + count) { value = value << 8 | UInt64(payload[i]) }
            return value
        }
    }
}

/// The server's memory with some number of idle connections held.
struct IdleMark {
    var connections: Int
    var server: ProcessSample?
}
