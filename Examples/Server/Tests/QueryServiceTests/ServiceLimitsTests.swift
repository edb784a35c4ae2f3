// What a service must survive from strangers, and how each failure is answered:
// misspelt or repeated fields, a list over SQLite's bound-value limit (413), a
// pattern that backtracks too much (400), a store locked by a writer (503 with
// Retry-After), a megabyte of unknown names (400 with capped diagnostics, fast).

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import QueryService
import Testing

/// A store file of the example data in a temporary folder, removed at the end.
final class ExampleStoreFile {
    let folder: URL
    let path: String

    init(fillerPerEntity: Int = 0) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-server-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("store.sqlite").path
        let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: fillerPerEntity))
    }

    /// Runs SQL on the store through a read-write connection of its own.
    func write(_ sql: String) throws -> SQLiteStore {
        let store = try SQLiteStore.open(at: path, readOnly: false)
        try store.execute(sql)
        return store
    }

    /// Adds `count` transactions to the first budget, for queries that take long.
    func addTransactions(_ count: Int) throws {
        _ = try write(
            """
            WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT \(count))
            INSERT INTO ZTRANSACTION (Z_PK, Z_ENT, Z_OPT, ZNOTE, ZAMOUNT, ZBUDGET)
            SELECT 100000 + x, (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Transaction'), 1, 'n' || x, x, 1 FROM c
            """)
    }

    /// A request that compares each of those transactions with every other: minutes of work.
    static let slowRequest = Data(
        #"{"entity": "Transaction", "filter": "SUBQUERY(budget.transactions, $t, $t.amount > amount).@count > 1000000"}"#
            .utf8)

    deinit { try? FileManager.default.removeItem(at: folder) }
}

struct ServiceLimitsTests {
    private func body(_ response: QueryResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func unknownAndRepeatedFieldsAreRejectedWithADidYouMean() async throws {
        let service = try QueryService(exampleData: 0)
        let misspelt = await service.handle(body: Data(#"{"entity": "Budget", "filtre": "limit > 1000"}"#.utf8))
        #expect(misspelt.status == 400)
        let message = try #require(try body(misspelt)["error"] as? String)
        #expect(message.hasPrefix("the body is not a query request: unknown field 'filtre'; did you mean 'filter'?"))
        #expect(try body(misspelt)["code"] as? String == "request.invalid")

        let limt = await service.handle(body: Data(#"{"entity": "Budget", "limt": 1}"#.utf8))
        #expect(try (body(limt)["error"] as? String)?.contains("did you mean 'limit'?") == true)

        let twice = await service.handle(
            body: Data(#"{"entity": "Budget", "filter": "limit > 1000", "filter": "limit > 0"}"#.utf8))
        #expect(twice.status == 400)
        #expect(try body(twice)["error"] as? String == "the body is not a query request: the field 'filter' is given twice")

        // Keys inside parameters are parameter names, not fields.
        let nested = await service.handle(
            body: Data(#"{"entity": "Budget", "filter": "limit > $filtre", "parameters": {"filtre": 1000}}"#.utf8))
        #expect(nested.status == 200)

        let repeatedParameter = await service.handle(
            entity: "Budget", queryItems: [("filter", "limit > $m"), ("$m", "1"), ("$m", "2")])
        #expect(repeatedParameter.status == 400)
    }

    @Test func aFractionalLimitIsNamedAsSuch() async throws {
        let service = try QueryService(exampleData: 0)
        let response = await service.handle(body: Data(#"{"entity": "Budget", "limit": 1.5}"#.utf8))
        #expect(response.status == 400)
        #expect(try body(response)["error"] as? String == "the body is not a query request: 'limit' must be a whole number")
        let text = await service.handle(body: Data(#"{"entity": "Budget", "offset": "2"}"#.utf8))
        #expect(try body(text)["error"] as? String == "the body is not a query request: 'offset' must be a whole number")
    }

    @Test func aListOverSQLitesLimitIs413() async throws {
        // A generous budget: a debug build on a loaded machine decodes 40,000 values slowly.
        let service = try QueryService(exampleData: 0, timeout: .seconds(30))
        let names = (0..<40_000).map { "\"n\($0)\"" }.joined(separator: ",")
        let response = await service.handle(
            body: Data(#"{"entity": "Budget", "filter": "name in $names", "parameters": {"names": [\#(names)]}}"#.utf8))
        #expect(response.status == 413)
        #expect(try body(response)["code"] as? String == "query.limitExceeded")
        #expect(try (body(response)["error"] as? String)?.contains("the list '$names' has 40000") == true)
    }

    @Test func aPatternThatBacktracksTooMuchIs400() async throws {
        let file = try ExampleStoreFile()
        _ = try file.write("UPDATE ZBUDGET SET ZNAME = '\(String(repeating: "a", count: 40))' WHERE Z_PK = 1")
        let service = try QueryService(storeAt: file.path)
        let response = await service.handle(
            body: Data(#"{"entity": "Budget", "filter": "name matches $p", "parameters": {"p": "(a+)+b"}}"#.utf8))
        #expect(response.status == 400)
        #expect(try body(response)["code"] as? String == "query.patternTooCostly")
    }

    @Test func aStoreLockedByAWriterIs503WithRetryAfter() async throws {
        let file = try ExampleStoreFile()
        let service = try QueryService(storeAt: file.path)
        let writer = try file.write("BEGIN EXCLUSIVE; DELETE FROM ZBUDGET WHERE Z_PK = 1")
        let response = await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8))
        #expect(response.status == 503)
        #expect(response.headers["Retry-After"] == "1")
        #expect(try body(response)["code"] as? String == "store.busy")
        try writer.execute("ROLLBACK")
        #expect(await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8)).status == 200)
    }

    @Test func aFullQueueIs503AtOnceAndASpentBudgetIs503() async throws {
        let file = try ExampleStoreFile()
        try file.addTransactions(20_000)
        let service = try QueryService(storeAt: file.path, connections: 1, timeout: .seconds(1), maximumQueue: 0)
        let slow = Task { await service.handle(body: ExampleStoreFile.slowRequest) }
        let clock = ContinuousClock()
        let start = clock.now
        while service.idleConnections == 1, clock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
        let turnedAway = await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8))
        #expect(turnedAway.status == 503)
        #expect(turnedAway.headers["Retry-After"] == "1")
        #expect(try body(turnedAway)["code"] as? String == "store.poolExhausted")
        // The slow query runs out of its 1 s budget.
        let timedOut = await slow.value
        #expect(timedOut.status == 503)
        #expect(try body(timedOut)["code"] as? String == "query.timeout")
        #expect(await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8)).status == 200)
    }

    @Test func aMegabyteOfUnknownNamesIsAnsweredQuicklyWithCappedDiagnostics() async throws {
        // A generous budget (a debug build on a loaded machine); the time is checked below.
        let service = try QueryService(exampleData: 0, timeout: .seconds(30))
        let group = "(" + (0..<9_000).map { "zq\($0 % 1_000)" }.joined(separator: " || ") + ")"
        let filter = Array(repeating: group, count: 12).joined(separator: " && ")
        #expect(filter.utf8.count > 1_000_000 - 100_000)
        let request = try JSONEncoder().encode(QueryRequest(entity: "Budget", filter: filter))
        #expect(request.count <= 1 << 20)
        let clock = ContinuousClock()
        var response: QueryResponse?
        let elapsed = await clock.measure { response = await service.handle(body: request) }
        let answer = try #require(response)
        #expect(answer.status == 400)
        let diagnostics = try #require(try body(answer)["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 50)
        #expect(answer.body.count < 200_000)
        print(
            "ServiceLimitsTests: \(filter.utf8.count) bytes of unknown names answered in \(elapsed), \(answer.body.count) bytes")
        // Generous for a debug build on a loaded machine; a release build takes ~0.3 s.
        #expect(elapsed < .seconds(30))
        // The request's budget bounds checking too: with 1 ms, the checker stops.
        let hurried = try QueryService(exampleData: 0, timeout: .milliseconds(1))
        let late = await hurried.handle(body: request)
        #expect(late.status == 503)
        #expect(try body(late)["code"] as? String == "query.timeout")
        #expect(late.headers["Retry-After"] == "1")
        // Meanwhile, nothing is held: a cheap query runs at once.
        #expect(service.idleConnections == service.idleConnections)
        #expect(await service.handle(body: Data(#"{"entity": "Budget", "limit": 1}"#.utf8)).status == 200)
    }
    /// With a slow lane, slow queries hold only its connections: a cheap query is
    /// answered while two slow ones run and wait there, and a shape seen to be slow
    /// goes to the slow lane at once, leaving the cheap lane free.
    @Test func cheapQueriesDoNotWaitBehindSlowOnesOnTheirOwnLane() async throws {
        let file = try ExampleStoreFile()
        try file.addTransactions(20_000)
        try await Self.expectCheapQueriesPassSlowOnes(
            try QueryService(storeAt: file.path, connections: 1, slowLane: 1, timeout: .seconds(60)))
    }

    /// The lanes of `service` (one connection in each): a slow request runs on the
    /// slow lane, a second waits for it, and a cheap request is answered meanwhile.
    /// Also run on PostgreSQL (`PostgresServiceTests`).
    static func expectCheapQueriesPassSlowOnes(_ service: QueryService) async throws {
        #expect(service.connectionCount == 2)
        let first = Task { await service.handle(body: ExampleStoreFile.slowRequest) }
        let clock = ContinuousClock()
        let start = clock.now
        // The first runs on the cheap lane, is stopped after 100 ms and runs on the slow lane…
        while service.idleConnections == 2, clock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(500))
        // …so the second, of the same shape, waits for the slow lane, not the cheap one.
        let second = Task { await service.handle(body: ExampleStoreFile.slowRequest) }
        while service.waitingRequests == 0, clock.now - start < .seconds(20) { try await Task.sleep(for: .milliseconds(5)) }
        #expect(service.waitingRequests == 1)
        #expect(service.idleConnections == 1)
        let cheap = await service.handle(body: Data(#"{"entity": "Budget", "limit": 1}"#.utf8))
        #expect(cheap.status == 200, "\(cheap.text)")
        // Both slow ones are still at work (minutes of it) when the cheap one is answered.
        #expect(service.idleConnections == 1)
        #expect(service.waitingRequests == 1)
        first.cancel()
        second.cancel()
        #expect(await first.value.status == 499)
        #expect(await second.value.status == 499)
    }
}
