// The pool of read-only connections: queries run side by side, one budget covers
// waiting and running, cancelling a task frees its connection at once, a writer's
// lock is a `busy` error after the busy timeout, and errors come by kind.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct SQLiteStorePoolTests {
    /// A query that never ends by itself: only an interrupt or the deadline stops it.
    static let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"

    /// The example data in a store file (rollback journal) in `folder`.
    static func exampleStoreFile(in folder: TemporaryDirectory) throws -> String {
        let path = folder.path("pool.sqlite")
        let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: 50))
        return path
    }

    /// Runs the endless query on `store` under its deadline, as pq's own queries run.
    static func runEndless(_ store: SQLiteStore) throws(StoreError) -> Int {
        store.connection.startDeadline()
        let statement = try store.connection.prepare(endless)
        _ = try statement.step()
        return 0
    }

    @Test func queriesRunOnSeveralConnectionsAtOnce() async throws {
        let folder = try TemporaryDirectory()
        let pool = try SQLiteStorePool(at: try Self.exampleStoreFile(in: folder), size: 3)
        #expect(pool.size == 3)
        let query = try #require(pool.compile("Transaction where amount > 10 sort by amount").compiled)
        let single = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(30)))
        #expect(!single.isEmpty)
        // Three queries at once each hold a connection until all three have one.
        let started = ManagedCounter()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await pool.withStore(budget: QueryBudget(timeout: .seconds(30))) { store throws(StoreError) in
                        started.increment()
                        let clock = ContinuousClock.now
                        while started.value < 3, ContinuousClock.now - clock < .seconds(10) { usleep(1000) }
                        return try store.fetch(query).count
                    }
                }
            }
            for try await count in group { #expect(count == single.count) }
        }
        #expect(started.value == 3)
        #expect(pool.available == 3)
    }

    @Test func cancellingTheTaskInterruptsTheQueryAndFreesTheConnection() async throws {
        let folder = try TemporaryDirectory()
        let pool = try SQLiteStorePool(at: try Self.exampleStoreFile(in: folder), size: 1)
        let task = Task {
            try await pool.withStore(budget: QueryBudget(timeout: .seconds(60))) { store throws(StoreError) in
                try Self.runEndless(store)
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(pool.available == 0)
        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        // Watched without awaiting: the pool frees the connection on its own thread,
        // whether or not a task thread is free to run this test.
        while pool.available < 1, clock.now - cancelled < .seconds(10) { usleep(500) }
        let freedAfter = clock.now - cancelled
        let result = await task.result
        #expect(pool.available == 1)
        guard case .failure(let error as StoreError) = result else {
            Issue.record("expected a StoreError, got \(result)")
            return
        }
        #expect(error.kind == .cancelled)
        print("SQLiteStorePoolTests: a cancelled query freed its connection after \(freedAfter)")
        #expect(freedAfter < .seconds(2), "took \(freedAfter)")
        // The connection works for the next query.
        let query = try #require(pool.compile("Budget where limit > 0").compiled)
        #expect(try await !pool.fetch(query, budget: QueryBudget(timeout: .seconds(30))).isEmpty)
    }

    /// SQLite forgets an interrupt that comes while no statement runs; a pool job
    /// cancelled between its start and its statement's first step must still stop
    /// (a CI run lost one there: the endless query ran on to its budget).
    @Test func anInterruptBeforeTheStatementStartsIsNotLost() throws {
        let folder = try TemporaryDirectory()
        let store = try SQLiteStore.open(at: try Self.exampleStoreFile(in: folder))
        store.timeout = .seconds(5)
        store.interrupt()
        do {
            _ = try Self.runEndless(store)
            Issue.record("the endless query returned")
        } catch {
            // Without the kept request this ran to its 5 s timeout.
            #expect(error.kind == .cancelled, "\(error)")
        }
        // Once the query it was for has ended, the next query runs.
        store.clearInterrupt()
        let query = try #require(
            QueryCompiler.compile("Budget where limit > 0", schema: store.schema, mapping: store.mapping).compiled)
        #expect(try !store.fetch(query).isEmpty)
    }

    @Test func oneBudgetCoversWaitingAndRunning() async throws {
        let folder = try TemporaryDirectory()
        let pool = try SQLiteStorePool(at: try Self.exampleStoreFile(in: folder), size: 1)
        // Running past the budget: a timeout.
        do {
            _ = try await pool.withStore(budget: QueryBudget(timeout: .milliseconds(300))) { store throws(StoreError) in
                try Self.runEndless(store)
            }
            Issue.record("the endless query returned")
        } catch {
            #expect(error.kind == .timeout)
            #expect(error.kind.isTransient)
        }
        // Waiting past the budget: the pool is exhausted. The holder keeps its connection far
        // longer than any wait here (it is cancelled at the end), so a waiter that fails while
        // the connection is still held was stopped by its own budget. No bound on the wall
        // clock: on 2 busy cores a task may start or resume a minute late (seen on CI: a
        // blocking poll here once kept the waiter from starting for 60 s, and an awaited
        // waiter once resumed 64 s late), which times the machine, not the pool.
        let holder = Task {
            try await pool.withStore(budget: QueryBudget(timeout: .seconds(600))) { store throws(StoreError) in
                try Self.runEndless(store)
            }
        }
        let clock = ContinuousClock()
        while pool.available > 0 { try await Task.sleep(for: .milliseconds(10)) }
        let start = clock.now
        let result = await Task {
            try await pool.withStore(budget: QueryBudget(timeout: .milliseconds(300))) { _ throws(StoreError) in 1 }
        }.result
        let waited = clock.now - start
        print("SQLiteStorePoolTests: a 300 ms budget gave up waiting after \(waited)")
        switch result {
        case .success: Issue.record("got a connection the holder keeps")
        case .failure(let error as StoreError): #expect(error.kind == .poolExhausted, "\(error)")
        case .failure(let error): Issue.record("\(error)")
        }
        #expect(waited >= .milliseconds(290), "gave up after \(waited), before its budget ran out")
        #expect(pool.available == 0, "the holder let go of its connection before the waiter gave up")
        holder.cancel()
        _ = await holder.result
        #expect(pool.available == 1)
    }

    @Test func aWritersLockIsBusyAfterTheBusyTimeout() async throws {
        let folder = try TemporaryDirectory()
        let path = try Self.exampleStoreFile(in: folder)
        let pool = try SQLiteStorePool(at: path, size: 1, busyTimeout: .milliseconds(100))
        let writer = try SQLiteStore.open(at: path, readOnly: false)
        try writer.connection.execute("BEGIN EXCLUSIVE; DELETE FROM ZBUDGET WHERE Z_PK = 1")
        let query = try #require(pool.compile("Budget where limit > 0").compiled)
        do {
            _ = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(30)))
            Issue.record("read past an exclusive lock")
        } catch {
            #expect(error.kind == .busy)
            #expect(error.kind.rawValue == "store.busy")
            #expect(error.kind.isTransient && !error.kind.isCallersMistake)
        }
        try writer.connection.execute("ROLLBACK")
        #expect(try await !pool.fetch(query, budget: QueryBudget(timeout: .seconds(30))).isEmpty)
    }

    @Test func callersMistakesHaveTheirKinds() async throws {
        let (store, _) = try ExampleStore.make()
        let list = try #require(
            QueryCompiler.compile("Budget where name in $names", schema: store.schema, mapping: store.mapping).compiled)
        let names = ParameterValue.list((0..<40_000).map { .string("n\($0)") })
        #expect(throws: StoreError.self) { try store.fetch(list, parameters: ["names": names]) }
        do {
            _ = try store.fetch(list, parameters: ["names": names])
        } catch {
            #expect(error.kind == .limitExceeded)
            #expect(error.kind.isCallersMistake)
        }
        do {
            _ = try store.fetch(list, parameters: [:])
        } catch {
            #expect(error.kind == .invalidParameter)
        }
        let pattern = try #require(
            QueryCompiler.compile("Budget where name matches $p", schema: store.schema, mapping: store.mapping).compiled)
        try store.execute("UPDATE ZBUDGET SET ZNAME = '\(String(repeating: "a", count: 40))' WHERE Z_PK = 1")
        do {
            _ = try store.fetch(pattern, parameters: ["p": .single(.string("(a+)+b"))])
            Issue.record("the backtracking pattern returned")
        } catch {
            #expect(error.kind == .patternTooCostly)
            #expect(error.kind.isCallersMistake)
        }
        do {
            _ = try SQLiteStore.open(at: "/nonexistent/pq/store.sqlite")
        } catch {
            #expect(error.kind == .unavailable)
        }
    }
}

/// A counter shared between threads.
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
