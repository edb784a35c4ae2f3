// Lending a fixed set of stores (one connection each) to queries, one query per
// store at a time, for a service that answers many requests at once. What both
// pools share, SQLite's (`SQLiteStorePool`) and PostgreSQL's
// (`PostgresStorePool`): the bounded wait, the budget, the cancellation.
//
// Each store has a thread of its own (a serial dispatch queue) on which its
// queries run, so a blocking database call never holds one of Swift's task
// threads. One `QueryBudget` covers waiting for a store and running: a query
// that cannot get one before its deadline fails with `poolExhausted`, one that
// runs past it with `timeout` (the store's `timeout` is set to the time left when
// it starts). Cancelling the Swift task that waits or runs stops the query at
// once: the waiter leaves the queue, and the running statement is stopped through
// the store's `interrupt()` (`sqlite3_interrupt`, PostgreSQL's cancel request).
// A store is given back on its own thread as soon as its query ends, before the
// caller's task resumes, so a service whose task threads are all busy still frees
// its connections on time.

import Dispatch
import Foundation
import PredicateQuery

/// Stores lent out one query at a time, to waiters in order of arrival.
public final class StoreLending<Store: QueryStore & SendableMetatype>: @unchecked Sendable {
    /// The number of stores.
    public var size: Int { members.count }

    private let members: [Member]
    private let lock = NSLock()
    /// Members free to lend, by index; guarded by `lock`.
    private var idle: [Int]
    /// Queries waiting for a member, oldest first; guarded by `lock`.
    private var waiters: [Waiter] = []
    private var nextWaiterID = 0

    /// One store, and the thread its queries run on.
    private final class Member: @unchecked Sendable {
        let store: Store
        let queue: DispatchQueue

        init(store: Store, index: Int) {
            self.store = store
            queue = DispatchQueue(label: "pq.pool.\(index)")
        }
    }

    /// One query's run on a member: a cancellation that comes before it starts
    /// stops it from starting, one while it runs interrupts it, and one after it
    /// ends touches nothing (the member may be running another query by then).
    /// `finish` waits for an interrupt under way, so a late one never reaches the
    /// member's next query.
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

        var isCancelled: Bool { lock.withLock { cancelled } }

        func cancel(interrupting store: Store) {
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

    /// Run on a store's thread before each query it is lent for.
    private let prepare: (@Sendable (Store) throws(StoreError) -> Void)?

    /// Lends `stores` (at least one), each used by one query at a time. `prepare`, if
    /// given, readies a store before each query it is lent for (PostgreSQL's pool
    /// connects again there when the server ended a connection).
    public init(_ stores: [Store], prepare: (@Sendable (Store) throws(StoreError) -> Void)? = nil) {
        members = stores.enumerated().map { Member(store: $0.element, index: $0.offset) }
        idle = Array((0..<stores.count).reversed())
        self.prepare = prepare
    }

    /// Runs `body` on a free store, on that store's own thread, within `budget`:
    /// waiting for a free store and running both count against it. The store's
    /// `timeout` is the time left when `body` starts; cancelling the calling task
    /// interrupts the query.
    public func withStore<Result: Sendable>(
        budget: QueryBudget, _ body: @escaping @Sendable (Store) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        try budget.check("parsing, checking and lowering it")
        guard !Task.isCancelled else { throw StoreError("the query was cancelled", kind: .cancelled) }
        let index = try await acquire(budget: budget)
        let member = members[index]
        let job = Job()
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                    member.queue.async { [prepare] in
                        let outcome = Self.run(body, on: member.store, job: job, budget: budget, prepare: prepare)
                        // The store is free before the caller hears of it, here on its own
                        // thread: a caller whose task waits for a thread does not hold it.
                        self.release(index)
                        continuation.resume(with: outcome.mapError { $0 as any Error })
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

    /// Runs one query's `body` on `store` (on the store's thread), unless it was
    /// cancelled before it started or the budget ran out while it waited.
    private static func run<Result>(
        _ body: (Store) throws(StoreError) -> Result, on store: Store, job: Job, budget: QueryBudget,
        prepare: (@Sendable (Store) throws(StoreError) -> Void)?
    ) -> Swift.Result<Result, StoreError> {
        do throws(StoreError) {
            try prepare?(store)
            guard job.start() else { throw StoreError("the query was cancelled", kind: .cancelled) }
            // Once finished, no interrupt of this job can come: the next query starts clean.
            defer {
                job.finish()
                store.clearInterrupt()
            }
            try budget.check("waiting for a connection")
            store.timeout = budget.remaining
            // A cancellation while the timeout was set interrupted nothing.
            guard !job.isCancelled else { throw StoreError("the query was cancelled", kind: .cancelled) }
            return .success(try body(store))
        } catch {
            return .failure(error)
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
                    let total = QueryBudget.describe(budget.total)
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

    /// How many queries wait for a store now (for a service's queue bound and logs).
    public var waiting: Int { lock.withLock { waiters.count } }
    /// How many stores are free now.
    public var available: Int { lock.withLock { idle.count } }
}
