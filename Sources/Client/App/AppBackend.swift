import Foundation
import Posix
import Synchronization

/// The app's work off the screen's thread, on two `WorkQueue`s: one talks to the server, one
/// does work on this machine alone (reading a file, decoding a picture), so that never waits
/// behind a request or a reconnect. Each result is handed back to the app's thread.
///
/// When the connection drops the network queue reconnects on its own with a growing pause
/// (0.25 s doubling to 8 s), resumes the saved login (no new password), and runs again the calls
/// that are safe to repeat; a call that is not (a post) fails with "connection lost" so the user
/// decides, their picture still picked. `link` tells the screen which of the two it is. A
/// refused certificate is not retried: no pause makes it verify, so the link says `refused`
/// and requests fail at once until the user has acted and asks to try again.
final class AppBackend: @unchecked Sendable {
    enum Link: Equatable {
        case connected
        /// Trying again; `reason` is what went wrong last.
        case reconnecting(reason: String)
        /// The server's certificate was refused: not retried until the user asks
        /// (`tryAgainAfterRefusal`); every request fails with `error` meanwhile.
        case refused(message: String, remedy: Remedy?)
    }

    /// How a session is made: connect and resume the saved login, telling `notice` what the user
    /// should know (a server trusted on first use). Throws `.auth` when there is no valid saved
    /// login (the app then shows its login form).
    typealias Connect = @Sendable (_ notice: @escaping (SessionNotice) -> Void) throws(ClientError) -> SnapshareSession

    /// A request for the network queue.
    private struct Job {
        /// What the job does, and whether it needs the session for it.
        enum Work {
            /// Runs with the backend's session (made first if there is none).
            case withSession((SnapshareSession) -> Ran)
            /// Runs without it (signing in makes a new one); always has a completion.
            case alone(() -> () -> Void)
        }

        /// How a run with the session ended.
        enum Ran {
            /// With a result: the completion to deliver.
            case finished(() -> Void)
            /// The connection was lost under it.
            case lost
            /// The session's own reconnect met a refused certificate: the completion, and why.
            case refused(ClientError, () -> Void)
        }

        /// It may run again after a reconnect.
        let retry: Bool
        let work: Work
        /// The completion when the job fails without running: `error` says why.
        let failed: (_ error: ClientError) -> () -> Void

        init<T>(
            retry: Bool, _ work: @escaping (SnapshareSession) throws(ClientError) -> T,
            then: @escaping (Result<T, ClientError>) -> Void
        ) {
            self.retry = retry
            self.work = .withSession({ session in
                let result = Result { () throws(ClientError) in try work(session) }
                switch result {
                case .failure(let error) where error.isConnectionLoss: return .lost
                case .failure(let error) where error.refusedCertificate: return .refused(error, { then(result) })
                default: return .finished({ then(result) })
                }
            })
            failed = { error in { then(.failure(error)) } }
        }

        init<T>(alone work: @escaping () throws(ClientError) -> T, then: @escaping (Result<T, ClientError>) -> Void) {
            retry = false
            self.work = .alone(AppBackend.completion(of: work, then: then))
            failed = { error in { then(.failure(error)) } }
        }
    }

    private let network: WorkQueue<Job>
    /// Work on this machine alone: each job returns the completion to deliver.
    private let local: WorkQueue<() -> () -> Void>
    /// Guards `session`, `connect` and `completions`.
    private let lock = NSLock()
    /// The session, and how to make the next one; the login form's job and tests adopt a new one.
    private var session: SnapshareSession?
    private var connect: Connect
    /// Waiting to run on the app's thread.
    private var completions: [() -> Void] = []
    /// Set by the network queue, read by the app's thread.
    private let linkState = Mutex<Link>(.connected)
    /// The pause before the next reconnect; only the network queue touches it.
    private var pause = 0.25
    /// Wakes the app's thread from any thread, so its loop runs again (a completion waits, or a
    /// camera's frame arrived).
    let wake: @Sendable () -> Void
    /// Jobs run on the calling thread and completions at once (tests: results in order, no thread).
    private let inline: Bool
    /// Hears, on the app's thread, what a connection the backend made has to tell the user.
    var onNotice: ((SessionNotice) -> Void)?
    /// When a request last came back from the server (monotonic milliseconds); guarded by `lock`.
    private var lastAnswer = MonotonicClock.milliseconds()
    /// A check of the connection is on its way (the app's thread only).
    private var checking = false

    var link: Link { linkState.withLock { $0 } }

    /// A backend making sessions with `connect`, which has nothing to tell (tests).
    convenience init(
        connect: @escaping @Sendable () throws(ClientError) -> SnapshareSession, inline: Bool = false,
        wake: @escaping @Sendable () -> Void
    ) {
        self.init(noticing: { _ throws(ClientError) in try connect() }, inline: inline, wake: wake)
    }

    /// A backend making sessions with `connect`; `wake` is called (from a worker) whenever a
    /// completion is waiting in `takeCompletions()`.
    init(noticing connect: @escaping Connect, inline: Bool = false, wake: @escaping @Sendable () -> Void) {
        self.connect = connect
        self.wake = wake
        self.inline = inline
        network = WorkQueue()
        local = WorkQueue()
        // Weak: a queue's thread may outlive the backend by the job it is running.
        network.start(thread: inline ? nil : "snapshare-net") { [weak self] job in self?.runOnNetwork(job) ?? .done }
        local.start(thread: inline ? nil : "snapshare-local") { [weak self] job in
            self?.deliver(job())
            return .done
        }
    }

    deinit { stop() }

    /// A backend already holding `session` (tests, and the app after its login form).
    func adopt(_ session: SnapshareSession, connect: @escaping Connect) {
        lock.withLock { (self.session, self.connect) = (session, connect) }
        linkState.withLock { $0 = .connected }
    }

    /// Runs `work` with the session on the network queue; `then` runs on the app's thread with
    /// its result. `retry`: the call may run again after a reconnect (reads, and writes the
    /// server makes idempotent).
    func perform<T>(
        retry: Bool, _ work: @escaping (SnapshareSession) throws(ClientError) -> T,
        then: @escaping (Result<T, ClientError>) -> Void
    ) {
        network.submit(Job(retry: retry, work, then: then))
    }

    /// Runs `work` on the network queue without the current session (signing in makes a new
    /// one, which it adopts); `then` runs on the app's thread.
    func performSigningIn<T>(_ work: @escaping () throws(ClientError) -> T, then: @escaping (Result<T, ClientError>) -> Void) {
        network.submit(Job(alone: work, then: then))
    }

    /// Runs `work`, which needs nothing from the server, on the local queue, so it never waits
    /// behind a request or a reconnect and the screen never waits on it; `then` runs on the
    /// app's thread.
    func performLocal<T>(_ work: @escaping () throws(ClientError) -> T, then: @escaping (Result<T, ClientError>) -> Void) {
        local.submit(Self.completion(of: work, then: then))
    }

    /// The completions waiting to run on the app's thread, oldest first.
    func takeCompletions() -> [() -> Void] {
        lock.withLock {
            defer { completions = [] }
            return completions
        }
    }

    /// Asks the server for a sign of life when nothing has come back from it for `quiet`
    /// milliseconds and nothing else is asking, so that a lost connection is known, and the
    /// reconnecting banner shows, on every screen (not only on those that poll). One at a time.
    func checkConnection(quiet: Int64 = 2000) {
        guard !checking, case .connected = link, network.isIdle,
            MonotonicClock.milliseconds() - lock.withLock({ lastAnswer }) >= quiet
        else { return }
        checking = true
        perform(retry: true, { session throws(ClientError) in try session.ping() }, then: { [weak self] _ in self?.checking = false })
    }

    /// Waits until every request asked for so far has run, or `timeout` passed (on the way out,
    /// so a last save reaches the server); not while the server is unreachable.
    func drain(timeout: TimeInterval) {
        network.waitUntilEmpty(timeout: timeout)
    }

    /// Ends both queues after the jobs they are running (the session closes with the backend).
    func stop() {
        network.stop()
        local.stop()
    }

    // MARK: The network queue

    private func runOnNetwork(_ job: Job) -> WorkQueue<Job>.Outcome {
        let run: (SnapshareSession) -> Job.Ran
        switch job.work {
        case .alone(let work):
            deliver(work())
            return .done
        case .withSession(let work):
            run = work
        }
        let (held, makeSession) = lock.withLock { (self.session, self.connect) }
        if held == nil, let refusal {
            deliver(job.failed(refusal))
            return .done
        }
        guard let session = held else { return reconnect(makeSession, for: job) }
        switch run(session) {
        case .finished(let done):
            lock.withLock { lastAnswer = MonotonicClock.milliseconds() }
            deliver(done)
            return .done
        case .refused(let error, let done):
            // The session cannot reconnect until someone acts: drop it, and stop.
            lock.withLock { if self.session === session { self.session = nil } }
            refuse(error)
            deliver(done)
            return .done
        case .lost:
            break
        }
        // Lost under this job: the next try connects first.
        lock.withLock { if self.session === session { self.session = nil } }
        guard job.retry else {
            deliver(job.failed(ClientError(.connection, "connection lost; nothing was sent twice — try again")))
            return .done
        }
        return .again(after: 0)
    }

    private func reconnect(_ connect: Connect, for job: Job) -> WorkQueue<Job>.Outcome {
        do {
            let fresh = try connect { [weak self] notice in
                self?.deliver { [weak self] in self?.onNotice?(notice) }
            }
            lock.withLock { self.session = fresh }
            setLink(.connected)
            pause = 0.25
            return .again(after: 0)
        } catch  where error.refusedCertificate {
            refuse(error)
            deliver(job.failed(error))
            return .done
        } catch  where error.kind == .connection || error.kind == .tls {
            setLink(.reconnecting(reason: error.message))
            defer { pause = min(8, pause * 2) }
            return .again(after: pause)
        } catch {
            // The server answered but will not resume the login: the job fails with it.
            setLink(.connected)
            deliver(job.failed(error))
            return .done
        }
    }

    /// The refusal requests fail with until the user asks to try again.
    private var refusal: ClientError? {
        guard case .refused(let message, let remedy) = link else { return nil }
        return ClientError.certificate(message, remedy: remedy)
    }

    /// Stops connecting: `error` refused the server's certificate (from a reconnect, or from
    /// the login form's own connection).
    func refuse(_ error: ClientError) {
        setLink(.refused(message: error.message, remedy: error.remedy))
    }

    /// The user acted on a refusal (trusted the new certificate, or the instructor fixed the
    /// server): the next request connects again.
    func tryAgainAfterRefusal() {
        guard case .refused = link else { return }
        setLink(.connected)
    }

    private func setLink(_ link: Link) {
        let changed = linkState.withLock { state in
            defer { state = link }
            return state != link
        }
        if changed { wake() }
    }

    /// `work` run, its result wrapped for `then`: the completion to deliver.
    private static func completion<T>(
        of work: @escaping () throws(ClientError) -> T,
        then: @escaping (Result<T, ClientError>) -> Void
    ) -> () -> () -> Void {
        {
            let result = Result { () throws(ClientError) in try work() }
            return { then(result) }
        }
    }

    /// Hands `completion` to the app's thread (at once when inline: that is the app's thread).
    private func deliver(_ completion: @escaping () -> Void) {
        guard !inline else {
            completion()
            return
        }
        lock.withLock { completions.append(completion) }
        wake()
    }
}
