// The example server beside a writer sees every commit (issue 23, acceptance): on a
// real socket, a client asks the server again and again for the newest movie while
// another connection commits a movie every 10 ms; the numbers the server answers
// never go back, grow while the writer runs, and the first answer after the writer
// stops is its last commit. For a WAL store opened with no -wal (pq once served it
// frozen), one opened while its writer holds the -wal, and a rollback-journal store.
// The server creates no file beside the store that the writer did not.

import Foundation
import Hummingbird
import NIOCore
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import QueryService
import Testing

@testable import PQServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite(.serialized)
struct ServerFreshReadTests {
    enum Journal: String, CaseIterable, Sendable {
        case walWithoutWALFile, walWithWALFile, rollback
    }

    /// How long the writer writes in each case (30 s across the three).
    static let writing: TimeInterval = 10

    /// A movie's name for the writer's `number`th commit; names sort as numbers do.
    static func name(_ number: Int) -> String { "movie \(String(number + 1_000_000).dropFirst())" }

    @Test(arguments: Journal.allCases)
    func theServerSeesEveryCommitOfAWriterBesideIt(journal: Journal) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-server-fresh-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("movies.sqlite").path
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.movies, layout: .plain)
            try store.execute(journal == .rollback ? "PRAGMA journal_mode = DELETE" : "PRAGMA journal_mode = WAL")
            try Self.insert(0, into: store)
        }  // the last connection closing deletes the -wal
        let writer = try SQLiteStore.open(at: path, readOnly: false, schema: ExampleSchemas.movies, layout: .plain)
        if journal == .walWithWALFile { try Self.insert(1, into: writer) }
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))

        let service = try QueryService(storeAt: path, connections: 2)
        let written = WrittenCount(journal == .walWithWALFile ? 1 : 0)
        let writerBox = UncheckedStore(writer)
        let application = { (onServerRunning: @escaping @Sendable (any Channel) async -> Void) in
            Application(
                router: queryRouter(service, slowRequest: .seconds(5), log: { _ in }),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: onServerRunning)
        }
        try await withLiveServer(application: application) { client in
            var answers: [Int] = []
            var failures: [String] = []
            // Each answer ends its connection (the server watches for clients hanging
            // up), so each question is a request of its own, as a browser's would be.
            let port = client.port
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/entities/Movie?sort=name%20desc&limit=1"))
            let session = URLSession(configuration: .ephemeral)
            func ask() async throws {
                let (data, response) = try await session.data(from: url)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                let rows = json?["rows"] as? [[String: Any]]
                guard status == 200, let name = rows?.first?["name"] as? String,
                    let number = Int(name.dropFirst("movie ".count))
                else { return failures.append("\(status): \(String(decoding: data.prefix(300), as: UTF8.self))") }
                answers.append(number)
            }
            try await ask()
            if journal == .walWithoutWALFile {
                let after = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
                #expect(after == before, "the server created \(after.subtracting(before).sorted()) beside the store")
            }

            // The writer commits on a thread of its own, so that busy task threads cannot slow it.
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let end = Date().addingTimeInterval(Self.writing)
                while Date() < end {
                    do {
                        try Self.insert(written.next(), into: writerBox.store)
                    } catch {
                        written.fail("\(error)")
                        break
                    }
                    Thread.sleep(forTimeInterval: 0.01)
                }
                done.signal()
            }
            while !written.isFinished(waitingFor: done) { try await ask() }
            try await ask()

            print("ServerFreshReadTests \(journal): \(answers.count) answers, \(Set(answers).count) different, last \(answers.last ?? -1) of \(written.count)")
            #expect(failures.isEmpty, "the server failed: \(failures.prefix(3))")
            #expect(written.failure == nil, "the writer failed: \(written.failure ?? "")")
            #expect(answers.count >= 20, "only \(answers.count) answers")
            #expect(zip(answers, answers.dropFirst()).allSatisfy { $0 <= $1 }, "an answer went back in time: \(answers)")
            #expect(Set(answers).count > 10, "the server saw \(Set(answers).count) different newest movies")
            #expect(answers.last == written.count, "last answer \(answers.last ?? -1), writer's last commit \(written.count)")
        }
        withExtendedLifetime(writer) {}
    }

    /// Commits the writer's `number`th movie (its name is made here, from a number).
    static func insert(_ number: Int, into store: SQLiteStore) throws {
        try store.execute("INSERT INTO \"Movie\" (\"name\", \"genre\") VALUES ('\(name(number))', 1)")
    }
}

/// The writer's store, handed to its thread (only that thread uses it meanwhile).
private struct UncheckedStore: @unchecked Sendable {
    let store: SQLiteStore
    init(_ store: SQLiteStore) { self.store = store }
}

/// The number of the writer's last commit, and how it failed, shared with the reader.
private final class WrittenCount: @unchecked Sendable {
    private let lock = NSLock()
    private var last: Int
    private var finished = false
    private var message: String?
    init(_ last: Int) { self.last = last }
    /// The number of the next commit (counted as made once it is asked for).
    func next() -> Int { lock.withLock { last += 1; return last } }
    var count: Int { lock.withLock { last } }
    func fail(_ message: String) { lock.withLock { self.message = message; last -= 1 } }
    var failure: String? { lock.withLock { message } }
    /// Whether the writer has stopped (without waiting for it).
    func isFinished(waitingFor done: DispatchSemaphore) -> Bool {
        lock.withLock {
            if !finished, done.wait(timeout: .now()) == .success { finished = true }
            return finished
        }
    }
}
