// Readers that stay open see new commits (issue 23, item 1): a writer (a second
// connection, on a thread of its own) commits a row every 10 ms for 2 s beside an
// open read-only store and a pool; every read succeeds and is monotone, the reads
// see the count grow while the writer runs, and the first read after the writer
// stops equals the writer's final count. For a WAL store opened with no -wal (pq
// used to read it as immutable: frozen), a WAL store opened while its writer holds
// the -wal, a rollback-journal store (without a busy timeout, reads failed with
// "database is locked"), and one opened while its writer's -journal exists (pq
// used to read a private copy: frozen). pq's reads leave the store file's bytes as the
// writer left them.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuerySQLite

@Suite(.serialized) struct FreshReadTests {
    /// The store's journal, and what exists beside it when pq opens it.
    enum Journal: String, CaseIterable, Sendable {
        case walWithoutWALFile, walWithWALFile, rollback, rollbackWithJournal
    }

    /// How long the writer writes, and how often it commits.
    static let writing: Duration = .seconds(2)
    static let interval: Duration = .milliseconds(10)

    /// The writer's connection and what it has committed, shared between the test
    /// and the writer's thread (one of them at a time uses the connection).
    final class Writer: @unchecked Sendable {
        let connection: SQLiteConnection
        private let lock = NSLock()
        private var committed: Int
        private var finished = false
        private var failure: String?

        init(_ connection: SQLiteConnection, committed: Int) {
            self.connection = connection
            self.committed = committed
        }

        var state: (committed: Int, finished: Bool, failure: String?) {
            lock.withLock { (committed, finished, failure) }
        }

        /// On a thread of its own: commits one row every `interval` until `writing`
        /// has passed (after committing a transaction left open, if `pending`).
        func start(pending: Bool) {
            Thread.detachNewThread { [self] in
                let end = ContinuousClock.now + FreshReadTests.writing
                do {
                    if pending {
                        try connection.execute("COMMIT")
                        lock.withLock { committed += 1 }
                    }
                    while ContinuousClock.now < end {
                        try connection.execute("INSERT INTO item(name) VALUES ('x')")
                        lock.withLock { committed += 1 }
                        Thread.sleep(forTimeInterval: 0.010)
                    }
                } catch {
                    lock.withLock { failure = "\(error)" }
                }
                lock.withLock { finished = true }
            }
        }
    }

    /// Reads made on another thread, and whether that thread is done.
    final class Reads: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        private var errors: [String] = []
        private var finished = false

        func append(_ value: Int) { lock.withLock { values.append(value) } }
        func fail(_ error: String) { lock.withLock { errors.append(error) } }
        func finish() { lock.withLock { finished = true } }
        var state: (values: [Int], errors: [String], finished: Bool) { lock.withLock { (values, errors, finished) } }
    }

    /// A value handed to one other thread, which alone uses it until it is done.
    final class Unchecked<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// A store with 2 rows and a writer on it, ready to write: with
    /// `walWithoutWALFile` the first writer closed (so the -wal is gone) and the
    /// writer opens after the reader; with `walWithWALFile` the writer is open (its
    /// -wal holds a row); with `rollbackWithJournal` the writer is inside a
    /// transaction that wrote a row (its -journal exists), committed when it starts;
    /// with `rollback` the writer is idle.
    static func fixture(_ journal: Journal, at path: String) throws -> SQLiteConnection {
        let setUp = try SQLiteConnection(path: path, readOnly: false, create: true)
        let rollback = journal == .rollback || journal == .rollbackWithJournal
        try setUp.execute(rollback ? "PRAGMA journal_mode = DELETE" : "PRAGMA journal_mode = WAL")
        try setUp.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO item(name) VALUES ('a'), ('b')")
        return setUp
    }

    /// The rows of `item`, read on `store`'s connection.
    static func count(_ store: SQLiteStore) throws(StoreError) -> Int {
        let statement = try store.connection.prepare("SELECT count(*) FROM item")
        guard try statement.step(), case .int(let count) = statement.column(0) else {
            throw StoreError("no count")
        }
        return Int(count)
    }

    @Test(arguments: Journal.allCases)
    func openReadersSeeEveryCommit(journal: Journal) async throws {
        resumePromptlyAfterWaits()  // it mostly waits for the writer
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        var setUp: SQLiteConnection? = try Self.fixture(journal, at: path)
        var pending = false
        switch journal {
        case .walWithoutWALFile:
            setUp = nil  // closing the only connection checkpoints the -wal and deletes it
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the fixture kept its -wal")
        case .walWithWALFile:
            try setUp?.execute("INSERT INTO item(name) VALUES ('c')")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        case .rollback:
            break
        case .rollbackWithJournal:
            try setUp?.execute("BEGIN IMMEDIATE; INSERT INTO item(name) VALUES ('c')")
            pending = true
            let size = (try FileManager.default.attributesOfItem(atPath: path + "-journal")[.size] as? UInt64) ?? 0
            #expect(size > 0, "no -journal beside the store")
        }
        let store = try SQLiteStore.open(at: path)
        #expect(store.warnings.allSatisfy { !$0.contains("snapshot") }, "\(store.warnings)")
        let pool = try SQLiteStorePool(at: path, size: 2)
        let writerConnection = try setUp ?? SQLiteConnection(path: path, readOnly: false)
        let initial = journal == .walWithWALFile ? 3 : 2
        let writer = Writer(writerConnection, committed: initial)
        writer.start(pending: pending)

        // The store is read on a thread of its own, so other suites' tasks holding
        // every thread of Swift's pool (2 on 2 cores) cannot starve its reads; the
        // pool is read from this task, as a service would.
        let storeReader = Reads()
        let storeBox = Unchecked(store)
        Thread.detachNewThread {
            while !writer.state.finished {
                do throws(StoreError) {
                    storeReader.append(try Self.count(storeBox.value))
                } catch {
                    storeReader.fail("\(error)")
                }
                usleep(3000)
            }
            storeReader.finish()
        }
        var poolReads: [Int] = []
        var errors: [String] = []
        while !writer.state.finished {
            do {
                poolReads.append(
                    try await pool.lending.withStore(budget: QueryBudget(timeout: .seconds(10))) { member throws(StoreError) in
                        try Self.count(member)
                    })
            } catch {
                errors.append("\(error)")
            }
            // Waiting, not sleeping: the 2 s of reads leave this task thread to other
            // suites between reads (Swift's pool has 2 on 2 cores).
            try await Task.sleep(for: .milliseconds(3))
        }
        while !storeReader.state.finished { try await Task.sleep(for: .milliseconds(1)) }
        let storeReads = storeReader.state.values
        errors += storeReader.state.errors
        let (final, _, failure) = writer.state
        #expect(failure == nil, "the writer failed: \(failure ?? "")")
        let storeFile = try Data(contentsOf: URL(fileURLWithPath: path))
        let lastStoreRead = try Self.count(store)
        let lastPoolRead = try await pool.lending.withStore(budget: QueryBudget(timeout: .seconds(10))) {
            member throws(StoreError) in try Self.count(member)
        }

        #expect(errors.isEmpty, "\(errors.count) reads failed, first: \(errors.first ?? "")")
        for (name, reads) in [("store", storeReads), ("pool", poolReads)] {
            #expect(zip(reads, reads.dropFirst()).allSatisfy { $0 <= $1 }, "\(name): a read went back in time")
        }
        // 2 s of commits every 10 ms: the store's reads saw many of them (a frozen
        // reader sees one count). The pool's task may be starved by other suites, so
        // its freshness is its last read, below.
        #expect(
            Set(storeReads).count > 20, "store saw \(Set(storeReads).count) counts in \(storeReads.count) reads, final \(final)")
        #expect(lastStoreRead == final, "store: last read \(lastStoreRead), writer's final count \(final)")
        #expect(lastPoolRead == final, "pool: last read \(lastPoolRead), writer's final count \(final)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == storeFile, "pq's reads changed the store file")
        withExtendedLifetime((store, pool, writer)) {}
    }

    /// A writer holding an exclusive lock on a rollback-journal store past the
    /// busy timeout: the read says the store is locked (kind `busy`), not that it is
    /// not a SQLite database.
    @Test func aStoreLockedPastTheBusyTimeoutIsReportedAsLocked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        let writer = try Self.fixture(.rollbackWithJournal, at: path)
        let store = try SQLiteStore.open(at: path)
        try writer.execute("BEGIN EXCLUSIVE; INSERT INTO item(name) VALUES ('c')")
        store.busyTimeout = .milliseconds(200)
        let started = ContinuousClock.now
        do {
            _ = try Self.count(store)
            Issue.record("read past an exclusive lock")
        } catch {
            #expect(error.kind == .busy)
            #expect(error.message.contains("locked") && error.message.contains("200 ms"), "\(error.message)")
        }
        #expect(ContinuousClock.now - started >= .milliseconds(150), "did not wait for the writer")
        do {
            _ = try SQLiteStore.open(at: path)
            Issue.record("opened past an exclusive lock")
        } catch {
            #expect(error.kind == .busy, "\(error.message)")
            #expect(!error.message.contains("not a SQLite database"), "\(error.message)")
        }
        try writer.execute("COMMIT")
        #expect(try Self.count(store) == 3)
    }

    /// A WAL store with no -wal: pq reads it `immutable=1` and creates nothing beside
    /// it. A writer that opens, commits and closes between two queries leaves only a
    /// changed file, which the next query reads immutable again; a writer that stays
    /// open creates the -wal and -shm, and pq's next query reads live through them.
    /// Every read is the writer's count.
    @Test func aWALStoreWithNoWALFileIsWatchedAndCreatesNothingBesideIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try Self.fixture(.walWithoutWALFile, at: path)  // closed at once: its -wal is checkpointed and deleted
        let store = try SQLiteStore.open(at: path)
        #expect(try Self.count(store) == 2)
        guard case .immutableWhileUnchanged? = store.connection.plan else {
            Issue.record("not read immutable while unchanged: \(String(describing: store.connection.plan))")
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        let besides = { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }
        #expect(try besides() == ["store.sqlite"], "pq created a file beside the store")

        var writer: SQLiteConnection? = try SQLiteConnection(path: path, readOnly: false)
        try writer?.execute("INSERT INTO item(name) VALUES ('c')")
        writer = nil  // the only connection closing checkpoints the -wal and deletes it
        #expect(try besides() == ["store.sqlite"])
        #expect(try Self.count(store) == 3)
        #expect(store.connection.reopenCount == 1)
        guard case .immutableWhileUnchanged? = store.connection.plan else {
            Issue.record("not read immutable again: \(String(describing: store.connection.plan))")
            return
        }

        writer = try SQLiteConnection(path: path, readOnly: false)
        try writer?.execute("INSERT INTO item(name) VALUES ('d')")
        #expect(try Self.count(store) == 4)
        guard case .uri(let uri)? = store.connection.plan else {
            Issue.record("not read live beside a writer: \(String(describing: store.connection.plan))")
            return
        }
        #expect(uri.hasSuffix("readonly_shm=1"))
        try writer?.execute("INSERT INTO item(name) VALUES ('e')")
        #expect(try Self.count(store) == 5)
        // While pq reads through them, the writer closing leaves the -wal and -shm (SQLite
        // deletes them only when no other connection has the store open).
        writer = nil
        #expect(try Self.count(store) == 5)
        #expect(store.connection.reopenCount == 2)
    }

    /// A query that reads a WAL store immutable while a writer opens it, commits,
    /// checkpoints into the file and closes: the query fails (kind `busy`, saying
    /// why) instead of answering from a mix of two versions; the next one reads the
    /// new rows.
    @Test func aQueryDuringWhichTheImmutableStoreChangedFails() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try Self.fixture(.walWithoutWALFile, at: path)  // closed at once: its -wal is checkpointed and deleted
        let store = try SQLiteStore.open(at: path)
        #expect(try Self.count(store) == 2)
        do {
            let statement = try store.connection.prepare("SELECT name FROM item ORDER BY id")
            #expect(try statement.step())
            var writer: SQLiteConnection? = try SQLiteConnection(path: path, readOnly: false)
            try writer?.execute("INSERT INTO item(name) VALUES ('c')")
            writer = nil
            while try statement.step() {}
            Issue.record("the query answered although the store changed under it")
        } catch {
            #expect(error.kind == .busy)
            #expect(error.message.contains("changed while the query read it"), "\(error.message)")
        }
        #expect(try Self.count(store) == 3)
    }

    /// A writer that opens the store and commits into a new `-wal` during a query
    /// leaves the file the query reads as it was: the query answers the store as of
    /// its start (CI once saw a REPL refuse here), and the next query sees the commit.
    @Test func aWALAppearingDuringAQueryLeavesItWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        _ = try Self.fixture(.walWithoutWALFile, at: path)
        let store = try SQLiteStore.open(at: path)
        let writer = try SQLiteConnection(path: path, readOnly: false)
        do {
            let statement = try store.connection.prepare("SELECT name FROM item ORDER BY id")
            var names: [Value] = []
            #expect(try statement.step())
            names.append(statement.column(0))
            try writer.execute("INSERT INTO item(name) VALUES ('c')")
            #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the writer wrote no -wal")
            while try statement.step() { names.append(statement.column(0)) }
            #expect(names == [.string("a"), .string("b")], "the query saw \(names)")
        }
        #expect(try Self.count(store) == 3)
        withExtendedLifetime(writer) {}
    }
}
