import CSQLite
import Foundation
import Posix

/// Copies the WAL back into the database file on a thread of its own, so the writer never does.
///
/// Why: with SQLite's automatic checkpoints, the writer thread itself reads every committed page
/// back from the WAL, writes it into the database file and fsyncs that, after the COMMIT of the
/// batch that crossed the threshold, and every other write waits meanwhile. For 100 KB images that
/// was about a third of the writer's time per post (docs/benchmarks.md). A PASSIVE checkpoint on a
/// second connection copies the same pages while the writer goes on committing: SQLite lets one
/// checkpointer and one writer work on a WAL at once.
///
/// The writer connection's WAL hook calls `nudge` after each commit once the WAL holds
/// `thresholdBytes`; nudges that arrive while a checkpoint runs are merged into one more run.
///
/// A background checkpoint never catches up with a writer that keeps committing, and SQLite only
/// starts the WAL over once every frame in it has been copied, so under sustained writes the WAL
/// would grow without end. Once it passes `catchUpBytes`, the writer's hook waits for the running
/// pass and copies the frames that arrived meanwhile itself (`catchUp`); the next commit then
/// starts the WAL from its beginning, and the writer's `journal_size_limit` cuts the file back.
/// The writer copies only that remainder, never the whole WAL.
final class WALCheckpointer: @unchecked Sendable {
    /// WAL size that asks for a checkpoint (SQLite's own default is 1,000 pages of 4 KiB).
    static let thresholdBytes = 4 * 1024 * 1024
    /// WAL size past which the writer catches up with the checkpointer itself.
    static let catchUpBytes = 32 * 1024 * 1024

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var requested = false
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Held for each checkpoint, so a TRUNCATE checkpoint elsewhere (compact) waits for it instead
    /// of failing busy. Recursive: a commit made inside `paused` may run the WAL hook's catch-up
    /// on the same thread.
    private let running = NSRecursiveLock()
    /// Used only by the checkpointer thread (and by `init`, before the thread starts); closed by
    /// that thread before `stop` returns, so the writer's connection is the last one to close.
    private var connection: SQLiteDatabase?
    /// `thresholdBytes` in pages of this database.
    let thresholdPages: Int32
    /// `catchUpBytes` in pages of this database.
    let catchUpPages: Int32

    /// Opens a second read-write connection to `path` (a WAL database) and starts the thread.
    init(path: String) throws {
        let connection = try SQLiteDatabase(path: path)
        self.connection = connection
        let pageSize = max(512, try connection.scalar("PRAGMA page_size"))
        thresholdPages = Int32(clamping: Int64(Self.thresholdBytes) / pageSize)
        catchUpPages = Int32(clamping: Int64(Self.catchUpBytes) / pageSize)
        NamedThread.start("wal-checkpoint") { [self] in run() }
    }

    /// Asks for a checkpoint soon; callable from any thread (the WAL hook runs on the writer's).
    func nudge() {
        condition.lock()
        requested = true
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` while no background checkpoint runs.
    func paused<T>(_ body: () throws -> T) rethrows -> T {
        running.lock()
        defer { running.unlock() }
        return try body()
    }

    /// Lets a running checkpoint finish, stops the thread and closes its connection.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        finished.wait()
    }

    private func run() {
        while true {
            condition.lock()
            while !requested && !stopping { condition.wait() }
            let stop = stopping
            requested = false
            condition.unlock()
            if stop { break }
            running.lock()
            // PASSIVE: copy what no reader still needs and never wait for anyone. A busy or
            // partial result is fine: the next nudge copies the rest.
            _ = try? connection?.queryFirst("PRAGMA wal_checkpoint(PASSIVE)") { $0.int64(at: 0) }
            running.unlock()
        }
        connection = nil
        finished.signal()
    }

    /// The WAL hook SQLite calls on the writer's connection after each commit; `context` is an
    /// unretained `WALCheckpointer`, `pages` the WAL's size in pages.
    static let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
        context, connection, _, pages in
        guard let context else { return SQLITE_OK }
        let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
        if pages >= checkpointer.catchUpPages, let connection {
            // Calling a checkpoint from this hook is what SQLite's own automatic checkpoint does.
            checkpointer.paused { _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil) }
        } else if pages >= checkpointer.thresholdPages {
            checkpointer.nudge()
        }
        return SQLITE_OK
    }
}
