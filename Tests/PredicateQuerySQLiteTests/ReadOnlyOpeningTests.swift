// Opening stores strictly read-only: every row is seen, rows that live only in
// the WAL included, and afterwards the store file is byte-identical — for a WAL
// store with -wal and -shm, with a -wal and no -shm, with neither, with an empty
// -wal, and for a rollback-journal store; and over every store of the Core Data
// corpus, when it is present. Every other file is byte-identical and none appears
// (a WAL store with no -wal is read `immutable=1` and watched, see `FreshReadTests`,
// where SQLite's `mode=ro` would create a -wal and a -shm beside it).

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct ReadOnlyOpeningTests {
    /// Which of a WAL store's files a fixture keeps.
    enum Sidecars: CaseIterable {
        case walAndShm, walOnly, shmOnly, neither
    }

    /// Rows the fixture writes: `checkpointed` reach the main file, the rest live
    /// only in the `-wal`.
    static let checkpointed = 2
    static let walOnly = 3

    /// A store in its own folder of `directory`, written by a connection that is
    /// still open when its files are copied, so the copy's last rows live only in
    /// its `-wal` (or, with `wal: false`, a rollback-journal store).
    static func fixture(
        in directory: TemporaryDirectory, _ name: String, wal: Bool = true, sidecars: Sidecars = .walAndShm,
        emptyWAL: Bool = false
    ) throws -> String {
        let source = directory.path("source-\(name)")
        let target = directory.path(name)
        for folder in [source, target] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let writer = try SQLiteConnection(path: source + "/store.sqlite", readOnly: false, create: true)
        if wal { try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0") }
        try writer.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
        try writer.execute("INSERT INTO item(name) VALUES ('a'), ('b')")
        if wal { try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        if !emptyWAL { try writer.execute("INSERT INTO item(name) VALUES ('c'), ('d'), ('e')") }
        var names = ["store.sqlite"]
        if wal, sidecars == .walAndShm || sidecars == .walOnly { names.append("store.sqlite-wal") }
        if wal, sidecars == .walAndShm || sidecars == .shmOnly { names.append("store.sqlite-shm") }
        for file in names {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: target + "/" + file)
        }
        withExtendedLifetime(writer) {}
        return target + "/store.sqlite"
    }

    /// Every file in `folder`, by name, with its bytes.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// What changed from `before` to `after` (two `snapshot`s of a store's folder):
    /// every file must be byte-identical and none may appear or disappear. Empty when
    /// nothing changed.
    static func untouched(_ before: [String: Data], _ after: [String: Data]) -> [String] {
        var problems: [String] = []
        for (name, bytes) in after where before[name] != bytes {
            problems.append(before[name] == nil ? "\(name) appeared" : "\(name) changed")
        }
        problems += before.keys.filter { after[$0] == nil }.map { "\($0) disappeared" }
        return problems.sorted()
    }

    /// The rows of every table of the database at `path`, opened strictly read-only,
    /// by table name.
    static func rowCounts(_ path: String) throws -> [String: Int] {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        let tables = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var counts: [String: Int] = [:]
        while try tables.step() {
            guard case .string(let table) = tables.column(0) else { continue }
            let count = try connection.prepare("SELECT count(*) FROM \"\(table.replacingOccurrences(of: "\"", with: "\"\""))\"")
            _ = try count.step()
            if case .int(let value) = count.column(0) { counts[table] = Int(value) }
        }
        return counts
    }

    @Test(arguments: Sidecars.allCases)
    func walStoreIsReadWholeAndLeftUntouched(sidecars: Sidecars) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.fixture(in: directory, "store", sidecars: sidecars)
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Self.snapshot(folder)
        let store = try SQLiteStore.open(at: path)
        let rows = try store.rawRows("SELECT name FROM item ORDER BY id")
        // Without a -wal the WAL rows are gone with the writer; with one, they are seen.
        let hasWAL = sidecars == .walAndShm || sidecars == .walOnly
        #expect(rows.count == Self.checkpointed + (hasWAL ? Self.walOnly : 0))
        #expect(try Self.snapshot(folder)["store.sqlite"] == before["store.sqlite"], "the store file changed")
        #expect(Self.untouched(before, try Self.snapshot(folder)) == [], "a file changed or appeared beside the store")
        withExtendedLifetime(store) {}
        #expect(Self.untouched(before, try Self.snapshot(folder)) == [], "closing the store changed a file")
    }

    @Test func fixtureHasRowsOnlyInItsWAL() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.fixture(in: directory, "store")
        // Read as `immutable=1` reads, ignoring the -wal: the WAL rows are missing.
        let connection = try SQLiteConnection(path: ReadOnlyOpening.uri(for: path, query: "immutable=1"), readOnly: false)
        let statement = try connection.prepare("SELECT count(*) FROM item")
        _ = try statement.step()
        #expect(statement.column(0) == .int(Int64(Self.checkpointed)))
    }

    @Test func walWithoutShmIsReadFromAPrivateCopyThatIsDeleted() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.fixture(in: directory, "store", sidecars: .walOnly)
        guard case .privateCopy = ReadOnlyOpening.plan(forStoreAt: path) else {
            Issue.record("not read from a private copy")
            return
        }
        var store: SQLiteStore? = try SQLiteStore.open(at: path)
        let folder = try #require(store?.connection.privateFolder)
        #expect(store?.warnings.first?.contains("is read from a private copy") == true, "\(store?.warnings ?? [])")
        #expect(!folder.path.hasPrefix((path as NSString).deletingLastPathComponent))
        #expect(try store?.rawRows("SELECT count(*) FROM item") == [[.int(Int64(Self.checkpointed + Self.walOnly))]])
        #expect(FileManager.default.fileExists(atPath: folder.path))
        store = nil
        #expect(!FileManager.default.fileExists(atPath: folder.path), "the private copy outlived the store")
    }

    @Test func emptyWALWithoutShmAndRollbackStoresAreLeftUntouched() throws {
        let directory = try TemporaryDirectory()
        let cases = [
            try Self.fixture(in: directory, "empty-wal", sidecars: .walOnly, emptyWAL: true),
            try Self.fixture(in: directory, "empty-wal-shm", sidecars: .walAndShm, emptyWAL: true),
            try Self.fixture(in: directory, "rollback", wal: false),
        ]
        for path in cases {
            let folder = (path as NSString).deletingLastPathComponent
            let before = try Self.snapshot(folder)
            let counts = try Self.rowCounts(path)
            let expected = path.contains("rollback") ? Self.checkpointed + Self.walOnly : Self.checkpointed
            #expect(counts["item"] == expected, "\(path)")
            #expect(Self.untouched(before, try Self.snapshot(folder)) == [], "\(path)")
        }
    }

    /// A rollback-journal store copied while its writer is in the middle of a
    /// transaction that spilled into the file: the copy's `-journal` is hot. pq reads
    /// the committed rows (from a private copy, where SQLite rolls the journal
    /// back, with a warning that it is a snapshot) and the store's files are
    /// untouched. (A `-journal` a live writer holds is not hot: see `FreshReadTests`.)
    @Test func storeWithAHotJournalIsReadFromAPrivateCopy() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source")
        let target = directory.path("target")
        for folder in [source, target] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let writer = try SQLiteConnection(path: source + "/store.sqlite", readOnly: false, create: true)
        try writer.execute("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 1")
        try writer.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item(name) VALUES ('a'), ('b')")
        try writer.execute(
            "BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO item(name) SELECT printf('%.500d', i) FROM n"
        )
        for file in ["store.sqlite", "store.sqlite-journal"] {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: target + "/" + file)
        }
        try writer.execute("ROLLBACK")
        let path = target + "/store.sqlite"
        let before = try Self.snapshot(target)
        let connection = try SQLiteConnection(path: path, readOnly: true)
        #expect(connection.privateFolder != nil)
        #expect(connection.snapshotWarning?.contains("hot -journal") == true)
        withExtendedLifetime(connection) {}
        #expect(try Self.rowCounts(path)["item"] == 2)
        #expect(try Self.snapshot(target) == before, "a file changed or appeared beside the store")
    }

    @Test func walModeHeaderIsRecognised() throws {
        let directory = try TemporaryDirectory()
        #expect(ReadOnlyOpening.hasWALHeader(try Self.fixture(in: directory, "wal", sidecars: .neither)))
        #expect(!ReadOnlyOpening.hasWALHeader(try Self.fixture(in: directory, "rollback", wal: false)))
        #expect(!ReadOnlyOpening.hasWALHeader(directory.path("missing")))
    }

    @Test func uriEscapesWhatAURIGivesAMeaningTo() {
        let uri = ReadOnlyOpening.uri(for: "/tmp/a b?c#d%e.sqlite", query: "mode=ro")
        #expect(uri == "file:/tmp/a%20b%3Fc%23d%25e.sqlite?mode=ro")
        // Bytes beyond ASCII are escaped too; a relative path is made absolute.
        #expect(ReadOnlyOpening.uri(for: "/tmp/café.sqlite", query: "mode=ro") == "file:/tmp/caf%C3%A9.sqlite?mode=ro")
        #expect(
            ReadOnlyOpening.uri(for: "x.sqlite", query: "mode=ro")
                == "file:\(FileManager.default.currentDirectoryPath)/x.sqlite?mode=ro")
    }

    @Test func storeWithAWeirdNameOpens() throws {
        let directory = try TemporaryDirectory()
        for name in ["odd ?#% name", "café ü 東京"] {
            let path = try Self.fixture(in: directory, name)
            #expect(try Self.rowCounts(path)["item"] == Self.checkpointed + Self.walOnly, "\(name)")
        }
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/coredata/stores")

    /// Every corpus store, copied with its sidecars into a folder of its own and
    /// opened strictly read-only there: each table's rows equal those a plain
    /// read-write connection sees on a second copy, and no byte of any file of the
    /// first copy changed and no file appeared. (The stores are opened in place,
    /// as an unprivileged user who could not write there anyway, by the CLI's
    /// `ReadOnlyStoreTests`: a regression here must not be able to touch the corpus.)
    @Test func corpusStoresAreReadWholeAndLeftUntouched() throws {
        let root = Self.corpus.path
        guard FileManager.default.fileExists(atPath: root) else {
            print("notice: \(root) is missing; skipping the read-only corpus test")
            return
        }
        var stores = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            let directory = try TemporaryDirectory()
            let pristine = directory.path("pristine")
            let plain = directory.path("plain")
            try FileManager.default.copyItem(atPath: root + "/" + folder, toPath: pristine)
            try FileManager.default.copyItem(atPath: root + "/" + folder, toPath: plain)
            let before = try Self.snapshot(pristine)
            for name in before.keys.sorted() where name.hasSuffix(".sqlite") {
                let counts = try Self.rowCounts(pristine + "/" + name)
                _ = try? SQLiteStore.open(at: pristine + "/" + name)  // the Core Data refusal path opens it too
                let copy = try SQLiteConnection(path: plain + "/" + name, readOnly: false)
                var truth: [String: Int] = [:]
                let tables = try copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
                while try tables.step() {
                    guard case .string(let table) = tables.column(0) else { continue }
                    let count = try copy.prepare("SELECT count(*) FROM \"\(table)\"")
                    _ = try count.step()
                    if case .int(let value) = count.column(0) { truth[table] = Int(value) }
                }
                #expect(!counts.isEmpty && counts == truth, "\(folder)/\(name)")
                stores += 1
            }
            #expect(Self.untouched(before, try Self.snapshot(pristine)) == [], "\(folder)")
        }
        #expect(stores > 0)
    }
}
