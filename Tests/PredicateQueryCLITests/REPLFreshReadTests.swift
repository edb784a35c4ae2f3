// A REPL left open beside a writer sees every commit (issue 23, acceptance): on a
// real terminal, `pq` counts rows again and again while another connection commits
// a row every 10 ms; every count the REPL prints is at least the one before, the
// counts grow while the writer runs, and the first count after the writer stops is
// its final count. For a WAL store opened with no -wal (pq once read it frozen),
// one opened while its writer holds the -wal, and a rollback-journal store. pq
// creates no file beside the store that the writer did not.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuerySQLite

@Suite(.serialized)
struct REPLFreshReadTests {
    enum Journal: String, CaseIterable, Sendable {
        case walWithoutWALFile, walWithWALFile, rollback
    }

    /// How long the writer writes in each case, in seconds: 10 under
    /// `PQ_TEST_BUDGET=thorough` (the issue's 30 s across the three cases), 4 otherwise;
    /// `PQ_FRESH_READ_SECONDS` sets it. The checks are the same either way (at least 20
    /// counts, more than 10 of them different): the writer commits every 10 ms.
    static let writing = TimeInterval(TestBudget.count("PQ_FRESH_READ_SECONDS", quick: 4, thorough: 10))

    /// The counts the REPL printed: lines that are a number alone.
    static func counts(_ text: String) -> [Int] {
        text.components(separatedBy: "\r\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// What one session showed.
    struct Outcome: Sendable {
        var prompt = false
        var createdFile = false
        var answeredEveryTime = true
        var committed: Int64 = -1
        var writerFailure: String?
        var text = ""
    }

    @Test(arguments: Journal.allCases)
    func theREPLSeesEveryCommitOfAWriterBesideIt(journal: Journal) async throws {
        guard TerminalSession.isAvailable else {
            print("notice: no /usr/bin/script to give pq a terminal; skipping the REPL fresh-read test")
            return
        }
        // The session runs on a thread of its own (see `TerminalSession.waitFor`).
        let outcome = try await TerminalSession.offTaskThreads { try Self.session(journal) }
        let counts = Self.counts(outcome.text)
        #expect(outcome.prompt, "no prompt: \(outcome.text.prefix(500))")
        #expect(!outcome.createdFile, "pq created a file beside the store")
        #expect(outcome.answeredEveryTime, "the REPL stopped answering: \(outcome.text.suffix(500))")
        #expect(outcome.writerFailure == nil, "the writer failed: \(outcome.writerFailure ?? "")")
        #expect(counts.count >= 20, "only \(counts.count) counts: \(outcome.text.suffix(500))")
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "a count went back in time: \(counts)")
        #expect(Set(counts).count > 10, "the REPL saw \(Set(counts).count) different counts: \(counts)")
        #expect(counts.last == Int(outcome.committed), "last count \(counts.last ?? -1), writer's final \(outcome.committed)")
        #expect(!outcome.text.contains("error:"), "\(outcome.text.suffix(1000))")
    }

    /// A store with one movie and a writer on it, the REPL counting beside it while the
    /// writer commits for `writing` seconds, and one count after.
    static func session(_ journal: Journal) throws -> Outcome {
        var outcome = Outcome()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-repl-fresh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("movies.sqlite").path
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.movies, layout: .plain)
            var graph = ObjectGraph(schema: ExampleSchemas.movies)
            graph.insert("Movie", ["name": .string("first"), "genre": .int(1)])
            try store.insert(graph)
        }
        var setUp: SQLiteConnection? = try SQLiteConnection(path: path, readOnly: false)
        try setUp?.execute(journal == .rollback ? "PRAGMA journal_mode = DELETE" : "PRAGMA journal_mode = WAL")
        if journal == .walWithoutWALFile { setUp = nil }  // the last connection closing deletes the -wal
        let writer = try setUp ?? SQLiteConnection(path: path, readOnly: false)
        if journal == .walWithWALFile {
            try writer.execute("INSERT INTO \"Movie\" (\"name\", \"genre\") VALUES ('held', 1)")
        }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        let session = try TerminalSession(pq: ["--store", path, "--count", "--entity", "Movie"])
        defer { session.kill() }
        outcome.prompt = session.waitFor("Movie> ")
        session.type("TRUEPREDICATE\r")
        outcome.answeredEveryTime = session.waitFor("Movie> ", count: 2)
        if journal == .walWithoutWALFile {
            outcome.createdFile = try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) != before
        }

        // The writer commits a row every 10 ms on a thread of its own.
        let done = LockedFlag()
        let failure = LockedFailure()
        let writerBox = UncheckedBox(writer)
        Thread.detachNewThread {
            let end = Date().addingTimeInterval(Self.writing)
            while Date() < end {
                do {
                    try writerBox.value.execute("INSERT INTO \"Movie\" (\"name\", \"genre\") VALUES ('x', 2)")
                } catch {
                    failure.fail("\(error)")
                    break
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            done.set()
        }
        var prompts = 2
        while !done.isSet {
            session.type("TRUEPREDICATE\r")
            prompts += 1
            if !session.waitFor("Movie> ", count: prompts) { outcome.answeredEveryTime = false }
        }
        let statement = try writer.prepare("SELECT count(*) FROM \"Movie\"")
        _ = try statement.step()
        if case .int(let committed) = statement.column(0) { outcome.committed = committed }
        session.type("TRUEPREDICATE\r")
        prompts += 1
        if !session.waitFor("Movie> ", count: prompts) { outcome.answeredEveryTime = false }
        session.type(".quit\r")
        _ = session.finish()
        outcome.writerFailure = failure.failure
        outcome.text = session.text
        withExtendedLifetime(writer) {}
        return outcome
    }
}

/// A flag set once by another thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A failure noted by another thread.
final class LockedFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func fail(_ text: String) { lock.withLock { message = text } }
    var failure: String? { lock.withLock { message } }
}

/// A value handed to one other thread, which alone uses it until it is done.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
