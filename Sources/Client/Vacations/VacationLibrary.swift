import Foundation
import Posix

/// The vacations folder: one `NAME.vacation` SQLite file per Virtual Vacation.
///
/// Names ignore case (`Paris` and `paris` are one vacation). With no vacation at all the list
/// shows the default `My Vacation`, whose file is created the first time a command uses it; any
/// other vacation must be made with `create` first, so a typo in `--vacation` is an error rather
/// than a new, empty vacation.
struct VacationLibrary {
    /// The folder (it may not exist yet).
    let directory: String
    /// Creates the folder when a vacation is first written.
    private let makeDirectory: () throws(VacationError) -> String

    /// The vacations of the client state in `state`.
    init(state: ClientState) {
        directory = state.vacationsDirectory
        makeDirectory = { () throws(VacationError) -> String in
            do { return try state.makeVacationsDirectory() } catch {
                throw VacationError(.unavailable, "\(error)")
            }
        }
    }

    /// A file of the folder that could not be listed, and why.
    struct Warning: Equatable {
        var file: String
        var reason: String
        var line: String { "warning: \(reason)" }
    }

    /// Every vacation with its counts, by name ignoring case; the default when there is none.
    /// Files that are damaged, foreign or misnamed become warnings, not failures.
    func list() -> (vacations: [VacationSummary], warnings: [Warning]) {
        var vacations: [VacationSummary] = []
        var warnings: [Warning] = []
        for entry in entries() {
            let path = directory + "/" + entry
            guard let name = VacationName.name(fromFileName: entry) else {
                if !Self.isCompanion(entry) {
                    warnings.append(Warning(file: path, reason: "\(path) is not a vacation file (vacations are NAME.vacation); ignored"))
                }
                continue
            }
            do {
                vacations.append(try VacationStore.summary(name: name, path: path))
            } catch {
                warnings.append(Warning(file: path, reason: "\(error.message); skipped"))
            }
        }
        if vacations.isEmpty {
            vacations.append(VacationSummary(name: VacationName.defaultName, photos: 0, places: 0, tags: 0, exists: false))
        }
        vacations.sort { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
        return (vacations, warnings)
    }

    /// Makes a new, empty vacation; refuses a taken name (in any case) or an invalid one.
    @discardableResult
    func create(_ raw: String) throws(VacationError) -> VacationStore {
        let name = try VacationName.validated(raw).get()
        if let existing = existingName(matching: name) {
            throw VacationError(.alreadyExists, "a vacation named \"\(existing)\" already exists")
        }
        let folder = try makeDirectory()
        let path = folder + "/" + VacationName.fileName(for: name)
        // Named without replacing: of two processes creating the same vacation at once, exactly one succeeds.
        do { try Self.makeEmptyFile(path) } catch {
            if error.reason == .exists { throw VacationError(.alreadyExists, "a vacation named \"\(name)\" already exists") }
            throw VacationError(.unavailable, error.description)
        }
        do {
            return try VacationStore(name: name, path: path)
        } catch {
            _ = try? FileSystem.remove(path)
            throw error
        }
    }

    /// Opens a vacation: the default when `raw` is nil (created on first use), else one that
    /// exists (any case).
    func open(_ raw: String?) throws(VacationError) -> VacationStore {
        let requested = try VacationName.validated(raw ?? VacationName.defaultName).get()
        if let name = existingName(matching: requested) {
            return try VacationStore(name: name, path: path(for: name))
        }
        guard VacationName.same(requested, VacationName.defaultName) else {
            throw VacationError(.notFound, "no vacation named \"\(requested)\"", remedy: .createVacation(requested))
        }
        let folder = try makeDirectory()
        let name = VacationName.defaultName
        let path = folder + "/" + VacationName.fileName(for: name)
        // Two processes using the default for the first time at once share one file: the second
        // finds the name taken, by an empty file or a vacation, and opens that.
        do { try Self.makeEmptyFile(path) } catch {
            guard error.reason == .exists else { throw VacationError(.unavailable, error.description) }
        }
        return try VacationStore(name: name, path: path)
    }

    /// Deletes a vacation's file (and SQLite's companions); returns the name as it was stored.
    /// A damaged file can be removed too: that is how a user gets rid of one.
    @discardableResult
    func remove(_ raw: String) throws(VacationError) -> String {
        let name = try existing(raw)
        let path = path(for: name)
        do { try FileSystem.remove(path) } catch {
            throw VacationError(.unavailable, "cannot remove \(path): \(error.reason)")
        }
        for suffix in Self.companionSuffixes { _ = try? FileSystem.remove(path + suffix) }
        return name
    }

    /// The stored spelling of an existing vacation named `raw` in any case; `notFound` otherwise.
    func existing(_ raw: String) throws(VacationError) -> String {
        let requested = try VacationName.validated(raw).get()
        guard let name = existingName(matching: requested) else {
            throw VacationError(.notFound, "no vacation named \"\(requested)\"", remedy: .listVacations)
        }
        return name
    }

    /// The path of the file of vacation `name` (spelled as stored).
    func path(for name: String) -> String { directory + "/" + VacationName.fileName(for: name) }

    // MARK: Pieces

    /// A new, empty, owner-only file at `path` (which SQLite takes as a new database, and the
    /// store as a new vacation), never over an existing one.
    private static func makeEmptyFile(_ path: String) throws(OutputError) {
        try StagedOutput.write([], to: path, mode: 0o600)
    }

    /// SQLite's files next to a database: the write-ahead log, its index, a rollback journal.
    private static let companionSuffixes = ["-wal", "-shm", "-journal"]

    private static func isCompanion(_ entry: String) -> Bool {
        companionSuffixes.contains { entry.hasSuffix(VacationName.fileExtension + $0) }
    }

    /// The stored spelling of the vacation called `name` in any case, if there is one.
    private func existingName(matching name: String) -> String? {
        let names = entries().compactMap(VacationName.name(fromFileName:))
        return names.first { $0 == name } ?? names.first { VacationName.same($0, name) }
    }

    /// The folder's entries, sorted; none when it does not exist.
    private func entries() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
