import Client
import Foundation
import Synchronization
import TLS
import Wire

/// The users and snaps a scenario needs, made through the normal protocol before the load starts.
///
/// Users `bench_u000`... are registered, or logged in when an earlier run registered them, so
/// the bench can run again and again against one server. Each run posts its own fresh snaps to
/// open, so "every open succeeds exactly once" holds by construction.
struct BenchFixture: Sendable {
    /// Holds exactly `--feed-snaps` snaps for `list` (only the bench posts there).
    static let listFeed = "Dog Spots"
    /// Where `post`, `mixed` and the filler post.
    static let postFeed = "Random"
    /// Where the snaps to open are posted.
    static let viewFeed = "Memes"
    /// Snaps kept back from the load for the concurrent-open check after `view`.
    static let raceSnapCount = 20

    /// A session token per bench user, by user index.
    var tokens: [String]
    var usernames: [String]
    /// The user who posts the snaps others open (never one of the viewers: no OWN_SNAP).
    var posterToken: String
    /// Fresh snaps for `view` and `mixed`, newest last.
    var viewSnapIDs: [UInt64] = []
    /// Fresh snaps for the concurrent-open check.
    var raceSnapIDs: [UInt64] = []
    /// Ready album photos per user index (`photo`).
    var photoIDs: [[UInt64]] = []
    /// PostSnap payloads, encoded once.
    var postPayload: [UInt8]
    var tinyPostPayload: [UInt8]
    var imageBytes: Int
    /// Live snaps on the server and in the listed feed once preparation finished.
    var storedSnaps = 0
    var listFeedSnaps = 0

    static func password(for username: String) -> String { "bench password for \(username)" }

    /// Prepares what `options.scenario` needs; `log` receives progress lines.
    static func prepare(_ options: BenchOptions, context: TLSContext, log: (String) -> Void) throws -> BenchFixture {
        let image = try BenchImage.noisePNG(approximately: options.imageBytes)
        let tiny = try BenchImage.tinyPNG()
        let names = (0..<options.users).map { String(format: "bench_u%03d", $0) }
        log("signing in \(names.count + 1) users")
        let tokens = try signIn(names + ["bench_poster"], options: options, context: context)
        var fixture = BenchFixture(
            tokens: Array(tokens.dropLast()), usernames: names, posterToken: tokens[tokens.count - 1],
            postPayload: payload(PostSnap(feed: postFeed, image: image)),
            tinyPostPayload: payload(PostSnap(feed: postFeed, image: tiny)), imageBytes: image.count)

        // Each count on a connection of its own: seeding 100,000 snaps outlasts the server's idle timeout.
        let posterToken = fixture.posterToken
        let feedCounts = {
            let poster = try FixtureConnection(options: options, context: context, token: posterToken)
            defer { poster.close() }
            return try poster.feedCounts()
        }
        var counts = try feedCounts()
        if options.scenario == .list, let have = counts[listFeed], have < options.feedSnaps {
            log("posting \(options.feedSnaps - have) snaps to \(listFeed)")
            _ = try post(
                count: options.feedSnaps - have, payload: payload(PostSnap(feed: listFeed, image: tiny)),
                token: fixture.posterToken, options: options, context: context, workers: 2)
        }
        counts = try feedCounts()
        let stored = counts.values.reduce(0, +)
        if options.storedSnaps > stored {
            log("posting \(options.storedSnaps - stored) filler snaps to \(postFeed)")
            _ = try post(
                count: options.storedSnaps - stored, payload: fixture.tinyPostPayload,
                token: fixture.posterToken, options: options, context: context, workers: 4)
            counts = try feedCounts()
        }
        if options.scenario == .view || options.scenario == .mixed {
            let count = options.viewSnaps + (options.scenario == .view ? raceSnapCount : 0)
            log("posting \(count) snaps of \(image.count) bytes to open")
            let ids = try post(
                count: count, payload: payload(PostSnap(feed: viewFeed, image: image)),
                token: fixture.posterToken, options: options, context: context, workers: 2)
            fixture.viewSnapIDs = Array(ids.prefix(options.viewSnaps))
            fixture.raceSnapIDs = Array(ids.dropFirst(options.viewSnaps))
            counts = try feedCounts()
        }
        if options.scenario == .photo {
            log("finding or dropping a pin per user at \(PhotoAlbums.latitude), \(PhotoAlbums.longitude) and waiting for its album")
            fixture.photoIDs = try PhotoAlbums.prepare(options, context: context, tokens: fixture.tokens)
        }
        fixture.storedSnaps = counts.values.reduce(0, +)
        fixture.listFeedSnaps = counts[listFeed] ?? 0
        return fixture
    }

    /// The encoded payload of `message`.
    static func payload<M: WireMessage>(_ message: M) -> [UInt8] {
        var writer = ByteWriter()
        message.encode(into: &writer)
        return writer.bytes
    }

    // MARK: Users

    /// Registers each user, or logs in when the name is taken; returns their tokens in order.
    /// scrypt makes each of these tens of milliseconds of server work, so a few run at once.
    /// A session remembered in `--session-cache` is resumed instead (no scrypt on the server).
    private static func signIn(_ names: [String], options: BenchOptions, context: TLSContext) throws -> [String] {
        var cache = SessionCache(path: options.sessionCache)
        let server = "\(options.host):\(options.port)"
        let cached = names.map { cache.token(server: server, user: $0) }
        let tokens = Mutex<[String?]>(Array(repeating: nil, count: names.count))
        let failure = Mutex<String?>(nil)
        let workers = min(4, names.count)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                let connection = try FixtureConnection(options: options, context: context, token: nil)
                defer { connection.close() }
                for index in stride(from: worker, to: names.count, by: workers) {
                    var token = cached[index]
                    if let saved = token, !(try connection.resume(saved)) { token = nil }
                    if token == nil { token = try connection.signIn(names[index], classCode: options.classCode) }
                    tokens.withLock { $0[index] = token }
                }
            } catch {
                failure.withLock { $0 = $0 ?? "\(error)" }
            }
        }
        if let problem = failure.withLock({ $0 }) { throw BenchError("cannot sign in the bench users: \(problem)") }
        let result = tokens.withLock { $0.map { $0 ?? "" } }
        for (name, token) in zip(names, result) { cache.remember(token, server: server, user: name) }
        try cache.save()
        return result
    }

    // MARK: Snaps

    /// Posts `count` snaps with `payload` as the user of `token`, pipelined over `workers`
    /// connections; returns the new snap ids in posting order per connection.
    static func post(
        count: Int, payload: [UInt8], token: String, options: BenchOptions, context: TLSContext,
        workers: Int
    ) throws -> [UInt64] {
        let results = Mutex<[[UInt64]]>(Array(repeating: [], count: workers))
        let failure = Mutex<String?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let share = count / workers + (worker < count % workers ? 1 : 0)
            guard share > 0 else { return }
            do {
                let connection = try FixtureConnection(options: options, context: context, token: token)
                defer { connection.close() }
                let ids = try connection.postPipelined(count: share, payload: payload)
                results.withLock { $0[worker] = ids }
            } catch {
                failure.withLock { $0 = $0 ?? "\(error)" }
            }
        }
        if let problem = failure.withLock({ $0 }) { throw BenchError("cannot post the bench snaps: \(problem)") }
        return results.withLock { $0.flatMap { $0 } }
    }
}

/// A blocking connection used to prepare and check data (not for measured load).
final class FixtureConnection {
    let connection: ServerConnection

    /// Connects, says Hello and, with a token, resumes that session.
    init(options: BenchOptions, context: TLSContext, token: String?) throws {
        connection = try ServerConnection(host: options.host, port: options.port, context: context, timeout: 60)
        _ = try connection.hello(clientName: "snapshare-bench", versions: ProtocolConstants.current...ProtocolConstants.current)
        if let token {
            let _: Authenticated = try ServerConnection.expect(try connection.roundTrip(Resume(token: token)))
        }
    }

    func close() { connection.close() }

    /// Resumes a saved session; false when the server no longer knows it.
    func resume(_ token: String) throws -> Bool {
        let frame = try connection.roundTrip(Resume(token: token))
        if frame.type == MessageType.authenticated.rawValue { return true }
        if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self), error.code == .sessionInvalid {
            return false
        }
        let _: Authenticated = try ServerConnection.expect(frame)
        return true
    }

    /// Registers `name`, or logs in when it is taken; returns the session token.
    func signIn(_ name: String, classCode: String) throws -> String {
        let password = BenchFixture.password(for: name)
        let frame = try connection.roundTrip(Register(username: name, password: password, classCode: classCode))
        if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self), error.code == .usernameTaken {
            let login: Authenticated = try ServerConnection.expect(try connection.roundTrip(Login(username: name, password: password)))
            return login.token
        }
        let registered: Authenticated = try ServerConnection.expect(frame)
        return registered.token
    }

    /// Live snaps per feed name.
    func feedCounts() throws -> [String: Int] {
        let feeds: Feeds = try ServerConnection.expect(try connection.roundTrip(ListFeeds()))
        return Dictionary(feeds.feeds.map { ($0.name, Int($0.snapCount)) }, uniquingKeysWith: +)
    }

    /// Posts `count` snaps with up to 32 in flight; returns their ids in request order.
    func postPipelined(count: Int, payload: [UInt8]) throws -> [UInt64] {
        var ids = [UInt64](repeating: 0, count: count)
        var order: [UInt32: Int] = [:]
        var sent = 0
        var received = 0
        while received < count {
            while sent < count, order.count < 32 {
                let id = try connection.send(EncodedPostSnap(payload: payload))
                order[id] = sent
                sent += 1
            }
            let reply = try connection.receive()
            guard let index = order.removeValue(forKey: reply.requestID) else { continue }
            let posted: SnapPosted = try ServerConnection.expect(reply)
            ids[index] = posted.snap.id
            received += 1
        }
        return ids
    }
}

/// A PostSnap whose payload was encoded once: every post of a run carries the same image.
struct EncodedPostSnap: WireMessage {
    static let type = MessageType.postSnap
    var payload: [UInt8]

    init(payload: [UInt8]) { self.payload = payload }
    init(from reader: inout ByteReader) throws(WireError) { payload = try reader.readRaw(reader.remaining) }
    func encode(into writer: inout ByteWriter) { writer.writeRaw(payload) }
}

/// A failure that stops the bench before or after the load.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
