import Foundation
import SQLite
import TestSupport
import Testing

@testable import Client

@Suite("Vacation library")
struct VacationLibraryTests {
    @Test("with no vacation the list shows My Vacation, which listing alone does not create")
    func defaultVacationIsListedNotCreated() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let (vacations, warnings) = library.list()
        #expect(vacations == [VacationSummary(name: "My Vacation", photos: 0, places: 0, tags: 0, exists: false)])
        #expect(warnings.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: library.directory))
        let store = try library.open(nil)
        #expect(store.name == "My Vacation")
        #expect(FileManager.default.fileExists(atPath: library.directory + "/My Vacation.vacation"))
        #expect(library.list().vacations.map(\.exists) == [true])
    }

    @Test("the vacation file and its folder are private")
    func filesArePrivate() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.create("Secret Trip")
        let file = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((file[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: library.directory)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
    }

    @Test("a new vacation is listed by name with its counts; a taken name is refused in any case")
    func newVacationsAndDuplicates() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let paris = try library.create("  Paris 2024 ")
        #expect(paris.name == "Paris 2024")
        _ = try paris.visit(VacationTestSupport.photo(1, place: "Paris", tags: "louvre art"), now: 1)
        try library.create("athens")
        for taken in ["Paris 2024", "PARIS 2024", "paris 2024"] {
            do {
                try library.create(taken)
                Issue.record("\(taken) was created twice")
            } catch {
                #expect(error.kind == .alreadyExists)
                #expect(error.message.contains("\"Paris 2024\" already exists"), "\(error.message)")
            }
        }
        let listed = library.list().vacations
        #expect(listed.map(\.name) == ["athens", "Paris 2024"])
        #expect(listed.map(\.photos) == [0, 1])
        #expect(listed.map(\.tags) == [0, 2])
        // Names ignore case when opening too.
        #expect(try library.open("PARIS 2024").name == "Paris 2024")
    }

    @Test("names that could escape the folder or are not sensible file names are refused clearly")
    func badNamesAreRefused() {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let cases: [(String, String)] = [
            ("", "at least one visible character"), ("   ", "at least one visible character"),
            ("a/b", "/ or \\"), ("../escape", "/ or \\"), ("back\\slash", "/ or \\"),
            (".hidden", "start with a dot"), ("..", "start with a dot"),
            ("tab\there", "control characters"), ("new\nline", "control characters"), ("bell\u{7}", "control characters"),
            (String(repeating: "x", count: 65), "at most 64 characters"),
            (String(repeating: "😀", count: 51), "at most 200 bytes"),
        ]
        for (name, reason) in cases {
            do {
                try library.create(name)
                Issue.record("accepted \(name.debugDescription)")
            } catch {
                #expect(error.kind == .invalidName, "\(name.debugDescription)")
                #expect(error.message.contains(reason), "\(name.debugDescription): \(error.message)")
            }
        }
        #expect(throws: Never.self) { try library.create(String(repeating: "x", count: 64)) }
        #expect(throws: Never.self) { try library.create("Été à Montréal — 2025 (family)") }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: home.path + "/..").contains("escape")) != true)
    }

    @Test("a named vacation must exist, while the default is made on first use")
    func openingNeedsAnExistingVacation() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        do {
            _ = try library.open("Typo Trip")
            Issue.record("opened a vacation that does not exist")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.remedy == .createVacation("Typo Trip"))
        }
        #expect(try library.open("my vacation").name == "My Vacation")
    }

    @Test("removing a vacation deletes its file; removing a missing one is not found")
    func removingVacations() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.create("Rome")
        _ = try store.visit(VacationTestSupport.photo(1), now: 1)
        #expect(try library.remove("rome") == "Rome")
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        #expect(library.list().vacations.map(\.name) == ["My Vacation"])
        #expect(throws: VacationError.self) { try library.remove("Rome") }
    }

    @Test("damaged and foreign files are reported by name and do not stop the listing")
    func damagedAndForeignFilesAreWarnings() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        try library.create("Good")
        let folder = library.directory
        try Data("this is not a database, just text that is long enough to be a header".utf8)
            .write(to: URL(fileURLWithPath: folder + "/Garbage.vacation"))
        let foreign = try SQLiteDatabase(path: folder + "/Foreign.vacation", create: true, configuresJournal: false)
        try foreign.exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)")
        let newer = try SQLiteDatabase(path: folder + "/Future.vacation", create: true, configuresJournal: false)
        try newer.exec("CREATE TABLE x (y)")
        try newer.setApplicationID(VacationSchema.applicationID)
        try newer.setUserVersion(VacationSchema.version + 1)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))

        let (vacations, warnings) = library.list()
        #expect(vacations.map(\.name) == ["Good"])
        let lines = warnings.map(\.line)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.contains { $0.contains("Garbage.vacation") && $0.contains("damaged") })
        #expect(lines.contains { $0.contains("Foreign.vacation") && $0.contains("not a Snapshare vacation") })
        #expect(lines.contains { $0.contains("Future.vacation") && $0.contains("newer snapshare") })
        #expect(lines.contains { $0.contains("notes.txt") && $0.contains("not a vacation file") })
        #expect(lines.allSatisfy { $0.hasPrefix("warning: ") })
        // The foreign database was only looked at: its table is still there, untouched.
        #expect(try foreign.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'accounts'") == 1)
        #expect(try foreign.applicationID() == 0)
        // Opening a damaged vacation by name is a clear error; removing it is how to get rid of it.
        do {
            _ = try library.open("Garbage")
            Issue.record("opened a damaged file")
        } catch {
            #expect(error.kind == .damaged)
        }
        #expect(try library.remove("Garbage") == "Garbage")
    }
}
