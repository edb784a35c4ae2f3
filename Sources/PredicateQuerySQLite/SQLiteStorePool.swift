// A pool of read-only connections to one store, for a service that answers many
// requests at once: each query borrows a store (its own connection, its own kept
// statements) for as long as it runs, on a thread of its own, so queries run in
// parallel on as many cores as the pool has connections.
//
// Every member is opened exactly as `SQLiteStore.open(at:readOnly: true)` opens a
// store, so each keeps ReadOnlyOpening's guarantees: not one byte of the store's
// files changes. (A store that needs a private copy to be read, a `-wal` without
// its `-shm`, gets one copy per connection.)
//
// One `QueryBudget` covers waiting for a connection and running: a query that
// cannot get a connection before its deadline fails with `poolExhausted`, and
// one that runs past it with `timeout`. Cancelling the Swift task that waits or
// runs (a client that hung up) stops the query at once: the waiter leaves the
// queue, and the running statement is interrupted (`sqlite3_interrupt`).

import Dispatch
import Foundation
import PredicateQuery

/// Read-only stores over one file, lent out one query at a time.
public final class SQLiteStorePool: @unchecked Sendable {
    /// The store's schema and mapping (the same for every member).
    public let schema: Schema
    public let mapping: StoreMapping
    /// The number of connections.
    public var size: Int { members.count }

    private let members: [Member]
    private let lock = NSLock()
    /// Members free to lend, by index; guarded by `lock`.
    private var idle: [Int]
    /// Queries waiting for a member, oldest first; guarded by `lock`.
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0
    private let compileCache: QueryCache

    /// One connection, and the thread its queries run on.
    private final class Member: @unchecked Sendable {
        let store: SQLiteStore
        let queue: DispatchQueue

        init(store: SQLiteStore, index: Int) {
            self.store = store
            queue = DispatchQueue(label: "pq.pool.\(index)")
        }
    }

    /// One query's run on a member: a cancellation that comes before it starts
    /// stops it from starting, one while it runs interrupts it, and one after it
    /// ends touches nothing (the member may be running another query by then).
    private final class Job: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelled = false
        private var running = false

        /// Marks the job started; false if it was cancelled first.
        func start() -> Bool {
            lock.withLock {
                guard !cancelled else { return false }
                running = true
                return true
            }
        }

        func finish() { lock.withLock { running = false } }

        func cancel(interrupting store: SQLiteStore) {
            lock.withLock {
                cancelled = true
                if running { store.interrupt() }
            }
        }
    }

    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Int, any Error>
    }

    /// Opens `size` read-only connections to the store at `path` (see `SQLiteStore.open`).
    /// `busyTimeout` bounds how long a query waits for a lock another process's
    /// writer holds before it fails with a `busy` error.
    public init(
        at path: String, size: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), schema: Schema? = nil,
        layout: StoreMapping.Layout = .coreData, busyTimeout: Duration? = .milliseconds(250)
    ) throws(StoreError) {
        guard size >= 1 else { throw StoreError("a pool needs at least one connection", kind: .internal) }
        var members: [Member] = []
        for index in 0..<size {
            let store = try SQLiteStore.open(at: path, readOnly: true, schema: schema, layout: layout)
            store.busyTimeout = busyTimeout
            members.append(Member(store: store, index: index))
        }
        self.members = members
        self.schema = members[0].store.schema
        self.mapping = members[0].store.mapping
        self.idle = Array((0..<size).reversed())
        self.compileCache = QueryCache(schema: members[0].store.schema, mapping: members[0].store.mapping)
    }

    /// Compiles query text for this store, keeping the result (as `SQLiteStore.compile` does).
    public func compile(
        _ text: String, defaultEntity: String? = nil, count: Bool = false, summaries: Bool = false,
        limits: Limits = .standard
    ) -> CompileResult {
        compileCache.compile(text, defaultEntity: defaultEntity, count: count, summaries: summaries, limits: limits)
    }

    /// Runs `body` on a store of the pool, on a thread of the pool's own, within
    /// `budget`: waiting for a free connection and running both count against it.
    /// The store's `timeout` is the time left when `body` starts; cancelling the
    /// calling task interrupts the query.
    public func withStore<Result: Sendable>(
        budget: QueryBudget, _ body: @escaping @Sendable (SQLiteStore) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        try budget.check("parsing, checking and lowering it")
        guard !Task.isCancelled else { throw StoreError("the query was cancelled", kind: .cancelled) }
        let index = try await acquire(budget: budget)
        defer { release(index) }
        let member = members[index]
        let job = Job()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                    member.queue.async {
                        guard job.start() else {
                            continuation.resume(throwing: StoreError("the query was cancelled", kind: .cancelled))
                            return
                        }
                        defer { job.finish() }
                        do throws(StoreError) {
                            try budget.check("waiting for a connection")
                            member.store.timeout = budget.remaining
                            continuation.resume(returning: try body(member.store))
                        } catch {
                            continuation.resume(throwing: error)
                        }
                    }
                }
            } onCancel: {
                job.cancel(interrupting: member.store)
            }
        } catch let error as StoreError {
            if error.kind == .cancelled || error.kind == .timeout, Task.isCancelled {
                throw StoreError("the query was cancelled", code: error.code, kind: .cancelled)
            }
            throw error
        } catch {
            throw StoreError("\(error)", kind: .internal)
        }
    }

    /// Runs a compiled query on a store of the pool (see `withStore`).
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:],
        environment: QueryEnvironment = QueryEnvironment(), budget: QueryBudget
    ) async throws(StoreError) -> [Row] {
        // Values that cannot be bound are the caller's mistake, told before any wait.
        do {
            _ = try BindingResolver.resolve(query, parameters: parameters, environment: environment)
        } catch {
            throw StoreError(error)
        }
        return try await withStore(budget: budget) { store throws(StoreError) in
            try store.fetch(query, parameters: parameters, environment: environment)
        }
    }

    // MARK: - Lending

    /// A free member's index, waiting (in order of arrival) until one is free, the
    /// deadline passes (`poolExhausted`) or the task is cancelled.
    private func acquire(budget: QueryBudget) async throws(StoreError) -> Int {
        let id: Int = lock.withLock {
            nextWaiterID += 1
            return nextWaiterID
        }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
                    // A cancellation before the waiter is queued finds no waiter to drop,
                    // so it is looked for here, in the task, under the lock.
                    let ready: Int?? = lock.withLock {
                        if let index = idle.popLast() { return index }
                        if Task.isCancelled { return .some(nil) }
                        waiters.append(Waiter(id: id, continuation: continuation))
                        return nil
                    }
                    switch ready {
                    case .some(.some(let index)):
                        continuation.resume(returning: index)
                        return
                    case .some(.none):
                        continuation.resume(
                            throwing: StoreError("the query was cancelled while waiting for a connection", kind: .cancelled))
                        return
                    case .none:
                        break
                    }
                    let total = SQLiteConnection.describe(budget.total)
                    // A timer on a dispatch queue, not a task: it fires on time even
                    // when every thread of Swift's task pool is busy.
                    let size = self.size
                    let exhausted = StoreError(
                        "no connection of the store's \(size) came free within the query's \(total) budget",
                        kind: .poolExhausted)
                    let delay = budget.remaining
                    let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [weak self] in
                        self?.dropWaiter(id, exhausted)
                    }
                }
            } onCancel: {
                dropWaiter(id, StoreError("the query was cancelled while waiting for a connection", kind: .cancelled))
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("\(error)", kind: .internal)
        }
    }

    /// Removes a waiter still in the queue and resumes it with `error`.
    private func dropWaiter(_ id: Int, _ error: StoreError) {
        let waiter: Waiter? = lock.withLock {
            guard let position = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: position)
        }
        waiter?.continuation.resume(throwing: error)
    }

    /// Gives a member back: to the oldest waiter, or to the idle list.
    private func release(_ index: Int) {
        let waiter: Waiter? = lock.withLock {
            if waiters.isEmpty {
                idle.append(index)
                return nil
            }
            return waiters.removeFirst()
        }
        waiter?.continuation.resume(returning: index)
    }

    /// How many queries wait for a connection now (for a service's queue bound and logs).
    public var waiting: Int { lock.withLock { waiters.count } }
    /// How many connections are free now.
    public var available: Int { lock.withLock { idle.count } }
}
