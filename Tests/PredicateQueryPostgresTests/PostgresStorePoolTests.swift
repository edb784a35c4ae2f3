// PostgreSQL's pool on a live throwaway server, held to SQLiteStorePool's
// guarantees: queries run side by side, a cancelled task sends the cancel request
// so the backend stops and the connection is free within 100 ms, the budget's
// time left is the statement timeout, the wait for a connection is bounded, a
// writer's lock is `busy` after the lock timeout, the sessions are read-only, and
// a connection the server ended is made again before its next query.
// Skips with a notice when no server can be started.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryStore
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryPostgres

@Suite(.serialized)
struct PostgresStorePoolTests {
    /// The example data in a fresh database on `server`; its conninfo.
    static func exampleDatabase(on server: PostgresTestServer) throws -> String {
        try PostgresStore.run("CREATE DATABASE pool", at: server.conninfo())
        let url = server.conninfo(database: "pool")
        let store = try PostgresStore.create(url, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: 50))
        return url
    }

    /// The statements running on the server now, other than the asking one's.
    static func activeQueries(on server: PostgresTestServer, matching text: String) throws -> Int {
        let connection = try PostgresConnection(server.conninfo())
        let rows = try connection.query(
            "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND position($1 in query) > 0",
            [PostgresParameter(text: text, type: PostgresValues.text)])
        return Int(rows.first?.first.flatMap { $0 } ?? "") ?? -1
    }

    @Test func aCancelledQueryStopsOnTheServerAndFreesItsConnection() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try Self.exampleDatabase(on: server) }
            let pool = try PostgresStorePool(url, size: 2)
            #expect(pool.size == 2 && pool.available == 2)
            // pq's own query runs, with the same rows as one store gives.
            let query = try #require(pool.compile("Transaction where amount > 10 sort by amount").compiled)
            let rows = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(30)))
            // The same query typed (ModelQuery) runs on PostgreSQL as its text does, on the pool and on a store.
            let typed = Transaction.filter { $0.amount > 10 }.sorted(by: \.amount)
            #expect(try await pool.fetch(typed, budget: QueryBudget(timeout: .seconds(30))).map(\.id) == rows.map(\.id))
            #expect(try await pool.count(typed, budget: QueryBudget(timeout: .seconds(30))) == Int64(rows.count))
            #expect(try PostgresStore.open(url).fetch(typed).map(\.id) == rows.map(\.id))
            // Decoded into an app's own type, as on SQLite.
            let spendings = try await pool.fetch(typed, as: Spending.self, budget: QueryBudget(timeout: .seconds(30)))
            #expect(spendings.map(\.id) == rows.map(\.id.key))
            #expect(spendings.map { Value.double($0.amount) } == rows.map { $0.values["amount"] })
            #expect(spendings.map(\.budget) == rows.map { $0.toOne["budget"] })
            #expect(rows.count == (try PostgresStore.open(url).fetch(query)).count && !rows.isEmpty)
            // The query of rows, counted: its number of matches (not a row's first column).
            #expect(try await pool.count(query, budget: QueryBudget(timeout: .seconds(30))) == Int64(rows.count))
            // A query compiled to count is not fetched as objects (its number read as one).
            let counting = try #require(
                QueryCompiler.compile("Transaction where amount > 10", schema: pool.schema, mapping: pool.mapping, count: true)
                    .compiled)
            do {
                let made = try await pool.fetch(counting, budget: QueryBudget(timeout: .seconds(30)))
                Issue.record("fetched a count as \(made.map(\.id))")
            } catch let error as StoreError {
                #expect(error.message == StoreError.fetchedACount.message, "\(error.message)")
            }
            // A statement that sleeps 30 s, stopped only by the cancel request.
            // At the test's own priority (PostgresTestServer.withAsync raised it), so that it
            // starts while the test looks for it, not behind every test not yet started.
            let task = Task(priority: .high) {
                try await pool.withStore(budget: QueryBudget(timeout: .seconds(60))) { store throws(StoreError) in
                    try store.execute("SELECT pg_sleep(30)")
                }
            }
            let clock = ContinuousClock()
            let started = clock.now
            // Up to a minute for the task to start: on 2 busy cores the task threads may be
            // held that long by other tests (a full local run once missed a 10 s wait).
            while try Self.activeQueries(on: server, matching: "pg_sleep(30)") == 0, clock.now - started < .seconds(60) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(try Self.activeQueries(on: server, matching: "pg_sleep(30)") == 1)
            #expect(pool.available == 1)
            let cancelled = clock.now
            task.cancel()
            // Watched without awaiting: the pool frees the connection on its own
            // thread, whether or not a task thread is free to run this test.
            while pool.available < 2, clock.now - cancelled < .seconds(10) { usleep(500) }
            let freedAfter = clock.now - cancelled
            let result = await task.result
            print("PostgresStorePoolTests: a cancelled query freed its connection after \(freedAfter)")
            #expect(pool.available == 2)
            #expect(freedAfter < .milliseconds(100), "took \(freedAfter)")
            guard case .failure(let error as StoreError) = result else {
                Issue.record("expected a StoreError, got \(result)")
                return
            }
            #expect(error.kind == .cancelled, "\(error)")
            #expect(try Self.activeQueries(on: server, matching: "pg_sleep(30)") == 0, "the backend still runs the query")
            // The connection serves the next query.
            #expect(try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(30))).count == rows.count)
        }
    }

    @Test func theBudgetBoundsWaitingAndRunning() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try Self.exampleDatabase(on: server) }
            let pool = try PostgresStorePool(url, size: 1)
            // The time left becomes the statement timeout: the server stops the statement.
            let clock = ContinuousClock()
            let start = clock.now
            do {
                try await pool.withStore(budget: QueryBudget(timeout: .milliseconds(300))) { store throws(StoreError) in
                    try store.execute("SELECT pg_sleep(30)")
                }
                Issue.record("the statement was not stopped")
            } catch let error as StoreError {
                #expect(error.kind == .timeout, "\(error)")
                #expect(error.message.hasPrefix("the query ran longer than its "), "\(error.message)")
            }
            // Bounds that leave room for a task resumed late on busy task threads (a fresh-clone
            // CI run measured 5.4 s and 1.7 s), still far below the 30 s statement and the holder's 10 s.
            #expect(clock.now - start < .seconds(10))
            #expect(try Self.activeQueries(on: server, matching: "pg_sleep(30)") == 0)
            // One connection held: the next query waits its budget out, then `poolExhausted`.
            let holder = Task(priority: .high) {
                try await pool.withStore(budget: QueryBudget(timeout: .seconds(20))) { store throws(StoreError) in
                    try store.execute("SELECT pg_sleep(10)")
                }
            }
            let held = clock.now
            while pool.available == 1, clock.now - held < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
            #expect(pool.available == 0)
            let query = try #require(pool.compile("Budget where limit > 1").compiled)
            let waited = clock.now
            do {
                _ = try await pool.fetch(query, budget: QueryBudget(timeout: .milliseconds(200)))
                Issue.record("the query got a connection that was in use")
            } catch let error as StoreError {
                #expect(error.kind == .poolExhausted, "\(error)")
            }
            #expect(clock.now - waited < .seconds(5))
            holder.cancel()
            _ = await holder.result
            #expect(pool.available == 1)
        }
    }

    @Test func sessionsAreReadOnlyAndALockIsBusy() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try Self.exampleDatabase(on: server) }
            let pool = try PostgresStorePool(url, size: 2, lockTimeout: .milliseconds(200))
            // Two statements run at once: the server sees both active together. (Seen on
            // the server, not by the wall clock: under load, a fresh-clone CI run measured
            // 4.2 s for two 0.6 s statements, where a bound of 1.15 s told one from two.)
            let clock = ContinuousClock()
            let sleepers = Task(priority: .high) {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<2 {
                        group.addTask {
                            try await pool.withStore(budget: QueryBudget(timeout: .seconds(120))) { store throws(StoreError) in
                                try store.execute("SELECT pg_sleep(90)")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let started = clock.now
            var mostAtOnce = 0
            // Long enough for tasks that start late on busy task threads (a minute was seen on CI);
            // cancelled as soon as both are seen.
            while mostAtOnce < 2, clock.now - started < .seconds(85) {
                mostAtOnce = max(mostAtOnce, try Self.activeQueries(on: server, matching: "pg_sleep(90)"))
                try await Task.sleep(for: .milliseconds(20))
            }
            sleepers.cancel()
            _ = await sleepers.result
            #expect(mostAtOnce == 2, "the pool's two sessions never ran a statement at the same time")
            do {
                try await pool.withStore(budget: QueryBudget(timeout: .seconds(10))) { store throws(StoreError) in
                    try store.execute("DELETE FROM \"Budget\"")
                }
                Issue.record("a pooled session wrote")
            } catch let error as StoreError {
                #expect(error.message.contains("read-only"), "\(error)")
            }
            // A writer holds the table: the query gives up after the lock timeout.
            let writer = try PostgresStore.open(url)
            try writer.execute("BEGIN; LOCK TABLE \"Budget\" IN ACCESS EXCLUSIVE MODE")
            let query = try #require(pool.compile("Budget where limit > 1").compiled)
            let locked = clock.now
            do {
                _ = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(10)))
                Issue.record("the query ran through the writer's lock")
            } catch let error as StoreError {
                #expect(error.kind == .busy, "\(error)")
            }
            #expect(clock.now - locked < .seconds(2))
            try writer.execute("ROLLBACK")
            #expect(try await !pool.fetch(query, budget: QueryBudget(timeout: .seconds(10))).isEmpty)
        }
    }

    @Test func aConnectionTheServerEndedIsMadeAgain() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try Self.exampleDatabase(on: server) }
            let pool = try PostgresStorePool(url, size: 2)
            let query = try #require(pool.compile("Budget where limit > 100 sort by name").compiled)
            let before = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(10)))
            #expect(!before.isEmpty)
            // An administrator ends every session of the pool's database.
            let ended = try PostgresConnection(server.conninfo()).query(
                "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity WHERE datname = 'pool'")
            #expect(ended.first?.first == "2")
            // (With a timeout, pg_terminate_backend waits until each session's process
            // has exited, so its socket is closed: a session gone from pg_stat_activity
            // may still have its process, and the pool would find the connection alive,
            // which failed the test once under load. Wait until none is listed, too.)
            let clock = ContinuousClock()
            let start = clock.now
            while try PostgresConnection(server.conninfo()).query(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = 'pool'"
            ).first?.first != "0", clock.now - start < .seconds(10) {
                try await Task.sleep(for: .milliseconds(10))
            }
            for _ in 0..<4 {
                let rows = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(10)))
                #expect(rows.count == before.count)
            }
            #expect(pool.available == 2)
            // The sessions made again keep the pool's settings.
            do {
                try await pool.withStore(budget: QueryBudget(timeout: .seconds(10))) { store throws(StoreError) in
                    try store.execute("DELETE FROM \"Budget\"")
                }
                Issue.record("a session made again wrote")
            } catch let error as StoreError {
                #expect(error.message.contains("read-only"), "\(error)")
            }
        }
    }
}

/// A transaction as an app's own struct reads it.
private struct Spending: Decodable, Sendable {
    var id: Int64
    var amount: Double
    var budget: Int64?
}
