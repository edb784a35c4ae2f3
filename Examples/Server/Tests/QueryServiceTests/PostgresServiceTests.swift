// The service on PostgreSQL, against a live throwaway server (pq's
// `PostgresTestServer`, exported to this package as the PredicateQueryTestSupport
// product so the start/stop logic lives in one place): the same routes give the
// same status, error code and JSON body as on a SQLite store of the same data,
// and PostgreSQL's failures map to the same statuses (a spent budget and a full
// queue 503, a writer's lock 503 `store.busy`, a list over the bound-value limit
// 413). A client that hangs up mid-query frees its connection over HTTP too.
// Skips with a notice when no server can be started. Starting the server and
// loading data block for seconds, so they run off Swift's task threads, where
// they would stall the HTTP servers of the tests running meanwhile.

import Foundation
import Hummingbird
import LoopbackSocket
import PredicateQueryExamples
import PredicateQueryPostgres
import PredicateQuerySQLite
import PredicateQueryTestSupport
import QueryService
import Testing

@testable import PQServer

@Suite(.serialized)
struct PostgresServiceTests {
    /// pq's example data in a new database `name` on `server`; its URL.
    static func exampleDatabase(_ name: String, on server: PostgresTestServer, slow: Bool = false) throws -> String {
        try PostgresStore.run("CREATE DATABASE \(name)", at: server.conninfo())
        let url = server.url(database: name)
        let store = try PostgresStore.create(url, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: 0))
        if slow {
            // 20,000 more transactions in the first budget, for ExampleStoreFile.slowRequest.
            try store.execute(
                "INSERT INTO \"Transaction\" (id, amount, note, budget_id) SELECT 100000 + i, i, 'n' || i, 1 FROM generate_series(1, 20000) i"
            )
        }
        return url
    }

    private func code(_ response: QueryResponse) -> String? {
        ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any])?["code"] as? String
    }

    static let requests = [
        #"{"entity": "Budget", "filter": "limit > $min && name contains $text", "sort": "limit desc", "parameters": {"min": 100, "text": "Vac"}}"#,
        #"{"entity": "Movie", "filter": "genre == $g", "sort": "name", "parameters": {"g": "kids"}, "limit": 2}"#,
        #"{"entity": "Transaction", "filter": "budget.name == $n", "sort": "amount desc, date", "parameters": {"n": "Rent"}}"#,
        #"{"entity": "Transaction", "filter": "date > $d && note == nil", "sort": "date", "parameters": {"d": "2024-03-01"}}"#,
        #"{"entity": "Budget", "filter": "transactions.@count > 2", "sort": "name", "offset": 1}"#,
        #"{"entity": "Budget", "filter": "name in $names", "parameters": {"names": ["Rent", "Vacation", "None"]}}"#,
        #"{"entity": "Budget", "filter": "limit > 'lots'"}"#,
        #"{"entity": "Budgets"}"#,
        #"{"entity": "Budget", "filter": "limit > $min", "parameters": {"min": "many"}}"#,
        #"{"entity": "Budget", "filtre": "limit > 1"}"#,
        #"{"entity": "Budget", "limit": 5000}"#,
        #"{"entity": "Budget", "filter": "limit >"}"#,
    ]

    @Test func theSameRequestsGetTheSameAnswersOnBothDatabases() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try Self.exampleDatabase("same", on: server) }
            let file = try ExampleStoreFile()
            // A generous budget: a debug build decodes 40,000 list values slowly.
            let onPostgres = try QueryService(storeAt: url, connections: 2, timeout: .seconds(30))
            let onSQLite = try QueryService(storeAt: file.path, connections: 2, timeout: .seconds(30))
            #expect(onPostgres.databaseName == "PostgreSQL" && onSQLite.databaseName == "SQLite")
            var statuses: Set<Int> = []
            for request in Self.requests {
                let postgres = await onPostgres.handle(body: Data(request.utf8))
                let sqlite = await onSQLite.handle(body: Data(request.utf8))
                #expect(postgres.status == sqlite.status, "\(request): \(postgres.text)")
                #expect(postgres.text == sqlite.text, "\(request)")
                statuses.insert(sqlite.status)
            }
            #expect(statuses == [200, 400, 404])
            // A list over the bound-value limit is 413 on both.
            let names = (0..<40_000).map { "\"n\($0)\"" }.joined(separator: ",")
            let big = Data(#"{"entity": "Budget", "filter": "name in $names", "parameters": {"names": [\#(names)]}}"#.utf8)
            let tooMany = await onPostgres.handle(body: big)
            #expect(tooMany.status == 413 && code(tooMany) == "query.limitExceeded", "\(tooMany.text)")
            #expect(await onSQLite.handle(body: big).status == 413)
            // GET, with text parameters.
            let items = [(name: "filter", value: "limit > $m"), (name: "$m", value: "100"), (name: "sort", value: "name")]
            let get = await onPostgres.handle(entity: "Budget", queryItems: items)
            let sqliteGet = await onSQLite.handle(entity: "Budget", queryItems: items)
            #expect(get.status == 200 && get.text == sqliteGet.text)
        }
    }

    @Test func postgresFailuresMapToTheSameStatuses() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads {
                try Self.exampleDatabase("failures", on: server, slow: true)
            }
            let service = try QueryService(storeAt: url, connections: 1, timeout: .seconds(1), maximumQueue: 0)
            let slow = Task { await service.handle(body: ExampleStoreFile.slowRequest) }
            let clock = ContinuousClock()
            let start = clock.now
            while service.idleConnections == 1, clock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
            let turnedAway = await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8))
            #expect(turnedAway.status == 503 && turnedAway.headers["Retry-After"] == "1")
            #expect(code(turnedAway) == "store.poolExhausted")
            let timedOut = await slow.value
            #expect(timedOut.status == 503, "\(timedOut.text)")
            #expect(code(timedOut) == "query.timeout")
            #expect(clock.now - start < .seconds(10))
            // A writer's lock: 503 store.busy after the lock timeout, then 200 again.
            let writer = try PostgresStore.open(url)
            try writer.execute("BEGIN; LOCK TABLE \"Budget\" IN ACCESS EXCLUSIVE MODE")
            let locked = await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8))
            #expect(locked.status == 503 && code(locked) == "store.busy", "\(locked.text)")
            try writer.execute("ROLLBACK")
            #expect(await service.handle(body: Data(#"{"entity": "Budget"}"#.utf8)).status == 200)
        }
    }

    /// Lanes on PostgreSQL as on SQLite (`ServiceLimitsTests.expectCheapQueriesPassSlowOnes`).
    @Test func cheapQueriesDoNotWaitBehindSlowOnesOnPostgres() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads {
                try Self.exampleDatabase("lanes", on: server, slow: true)
            }
            try await ServiceLimitsTests.expectCheapQueriesPassSlowOnes(
                try QueryService(storeAt: url, connections: 1, slowLane: 1, timeout: .seconds(60)))
        }
    }

    @Test func aClientThatHangsUpFreesItsPostgresConnection() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads {
                try Self.exampleDatabase("hangup", on: server, slow: true)
            }
            let service = try QueryService(storeAt: url, connections: 2, timeout: .seconds(20))
            let body = String(decoding: ExampleStoreFile.slowRequest, as: UTF8.self)
            try await withLiveServer(application: { queryApplication(service, port: 0, onServerRunning: $0) }) { client in
                let port = client.port
                let socket = try #require(RawClient(port: port))
                socket.send("POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                let clock = ContinuousClock()
                let sent = clock.now
                while service.idleConnections == 2, clock.now - sent < .seconds(10) {
                    try await Task.sleep(for: .milliseconds(5))
                }
                try await Task.sleep(for: .milliseconds(300))
                #expect(service.idleConnections == 1)
                socket.close()
                let closed = clock.now
                while service.idleConnections < 2, clock.now - closed < .seconds(10) {
                    try await Task.sleep(for: .milliseconds(1))
                }
                let freed = clock.now - closed
                print("PostgresServiceTests: the connection was free \(freed) after the client hung up")
                #expect(service.idleConnections == 2)
                #expect(freed < .seconds(1), "took \(freed)")
            }
            // The server stopped the query too: no statement runs there.
            let asked = server.run(
                "psql",
                [
                    "-h", server.folder, "-U", "pq", "-d", "postgres", "-t", "-A", "-c",
                    "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()",
                ])
            let running = try String(contentsOfFile: server.folder + "/psql.out", encoding: .utf8)
            #expect(asked && running.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(running)")
        }
    }
}
