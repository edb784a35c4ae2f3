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
// The lending (the bounded wait, one `QueryBudget` over waiting and running, a
// cancelled task interrupting its statement with `sqlite3_interrupt`) is
// `StoreLending`'s, shared with PostgreSQL's pool.

import Dispatch
import Foundation
import PredicateQuery

/// Read-only stores over one file, lent out one query at a time.
public final class SQLiteStorePool: QueryStorePool, @unchecked Sendable {
    /// The store's schema and mapping (the same for every member).
    public let schema: Schema
    public let mapping: StoreMapping
    /// The connections, and the queries waiting for one.
    public let lending: StoreLending<SQLiteStore>
    private let compileCache: QueryCache

    /// Opens `size` read-only connections to the store at `path` (see `SQLiteStore.open`).
    /// `busyTimeout` bounds how long a query waits for a lock another process's
    /// writer holds before it fails with a `busy` error (no longer than the query's
    /// budget leaves).
    public init(
        at path: String, size: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), schema: Schema? = nil,
        layout: StoreMapping.Layout = .coreData, busyTimeout: Duration? = .seconds(5)
    ) throws(StoreError) {
        guard size >= 1 else { throw StoreError("a pool needs at least one connection", kind: .internal) }
        var stores: [SQLiteStore] = []
        for _ in 0..<size {
            let store = try SQLiteStore.open(at: path, readOnly: true, schema: schema, layout: layout)
            store.busyTimeout = busyTimeout
            // One mapping shared by every connection (when they read the same), so that
            // checking a query's layout against a store's (`StoreMapping.readsLike`)
            // finds the very same tables at once, however many connections there are.
            if let first = stores.first, store.mapping == first.mapping { store.mapping = first.mapping }
            stores.append(store)
        }
        self.lending = StoreLending(stores)
        self.schema = stores[0].schema
        self.mapping = stores[0].mapping
        self.compileCache = QueryCache(schema: stores[0].schema, mapping: stores[0].mapping)
    }

    /// Compiles query text for this store, keeping the result (as `SQLiteStore.compile` does).
    public func compile(
        _ text: String, defaultEntity: String? = nil, summaries: Bool = false,
        limits: Limits = .standard
    ) -> CompileResult {
        compileCache.compile(text, defaultEntity: defaultEntity, summaries: summaries, limits: limits)
    }
}
