// Lending stores to queries, on a store with no database behind it: the time
// left of the budget becomes the store's timeout, a waiter gives up when the
// budget runs out, a cancelled task interrupts its running query, and `prepare`
// runs before each query. (SQLiteStorePoolTests and PostgresStorePoolTests hold
// the real pools, which lend through this, to the same guarantees.)

import Dispatch
import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryStore

/// A store with no database: its queries are the bodies lent to it, and
/// `interrupt()` signals `interruptions`.
private final class FakeStore: QueryStore, @unchecked Sendable {
    let schema = Schema(entities: [])
    let mapping = StoreMapping.make(for: Schema(entities: []), layout: .plain)
    let isSchemaInferred = false
    var timeout: Duration?
    let interruptions = DispatchSemaphore(value: 0)

    func interrupt() { interruptions.signal() }

    func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> [Row] { [] }

    func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment,
        each body: (Row) -> Bool
    ) throws(StoreError) {}

    func count(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> Int64 { 0 }

    func queryPlan(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> [String] { [] }
}

/// A flag set on one thread and read on another.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    var isRaised: Bool { lock.withLock { raised } }
    func raise() { lock.withLock { raised = true } }
}

struct StoreLendingTests {
    /// Waits (at most 10 s) until `condition` holds.
    private static func waitUntil(_ condition: () -> Bool) async throws {
        let start = ContinuousClock.now
        while !condition(), ContinuousClock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func theTimeLeftOfTheBudgetIsTheStoresTimeout() async throws {
        let lending = StoreLending([FakeStore()])
        let timeout = try await lending.withStore(budget: QueryBudget(timeout: .seconds(30))) { store in store.timeout }
        let left = try #require(timeout)
        #expect(left > .seconds(10) && left <= .seconds(30))
        #expect(lending.size == 1 && lending.available == 1 && lending.waiting == 0)
    }

    @Test func aBudgetSpentBeforeTheWaitFailsAtOnce() async {
        let lending = StoreLending([FakeStore()])
        await #expect {
            try await lending.withStore(budget: QueryBudget(timeout: .zero)) { _ in 1 }
        } throws: { error in
            (error as? StoreError)?.kind == .timeout
        }
        #expect(lending.available == 1)
    }

    @Test func aWaiterGivesUpWhenItsBudgetRunsOut() async throws {
        let lending = StoreLending([FakeStore()])
        let release = DispatchSemaphore(value: 0)
        let holder = Task {
            try await lending.withStore(budget: QueryBudget(timeout: .seconds(30))) { _ in
                _ = release.wait(timeout: .now() + 20)
            }
        }
        try await Self.waitUntil { lending.available == 0 }
        await #expect {
            try await lending.withStore(budget: QueryBudget(timeout: .milliseconds(200))) { _ in 1 }
        } throws: { error in
            let error = error as? StoreError
            return error?.kind == .poolExhausted
                && error?.message == "no connection of the store's 1 came free within the query's 200 ms budget"
        }
        #expect(lending.waiting == 0)
        release.signal()
        try await holder.value
        #expect(lending.available == 1)
    }

    @Test func cancellingTheTaskInterruptsTheRunningQuery() async throws {
        let store = FakeStore()
        let lending = StoreLending([store])
        let running = Flag()
        let task = Task {
            try await lending.withStore(budget: QueryBudget(timeout: .seconds(30))) { store throws(StoreError) in
                running.raise()
                // The query "runs" until it is interrupted.
                guard store.interruptions.wait(timeout: .now() + 20) == .success else { return }
                throw StoreError("the query was interrupted", kind: .cancelled)
            }
        }
        try await Self.waitUntil { running.isRaised }
        task.cancel()
        await #expect {
            try await task.value
        } throws: { error in
            (error as? StoreError)?.kind == .cancelled
        }
        try await Self.waitUntil { lending.available == 1 }
        #expect(lending.available == 1)
    }

    @Test func prepareRunsBeforeEachQueryAndItsErrorFailsTheQuery() async throws {
        let prepared = Flag()
        let lending = StoreLending([FakeStore()]) { _ throws(StoreError) in prepared.raise() }
        let sawPrepared = try await lending.withStore(budget: QueryBudget(timeout: .seconds(30))) { _ in prepared.isRaised }
        #expect(sawPrepared)
        let failing = StoreLending([FakeStore()]) { _ throws(StoreError) in
            throw StoreError("cannot connect again", kind: .unavailable)
        }
        await #expect {
            try await failing.withStore(budget: QueryBudget(timeout: .seconds(30))) { _ in 1 }
        } throws: { error in
            (error as? StoreError)?.kind == .unavailable
        }
        #expect(failing.available == 1)
    }
}
