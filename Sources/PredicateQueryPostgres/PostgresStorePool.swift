// A pool of connections to one PostgreSQL store, for a service that answers many
// requests at once: the same shape and guarantees as `SQLiteStorePool`, through
// the same `StoreLending`. Each query borrows a store (its own libpq connection)
// for as long as it runs, on a thread of its own, so queries run side by side on
// the server's cores.
//
// One `QueryBudget` covers waiting for a connection and running: the wait is
// bounded (`poolExhausted`), and the time left when the query starts becomes the
// session's `statement_timeout`, so the server stops a query that runs past the
// deadline (`timeout`). Cancelling the Swift task (a client that hung up) sends
// PostgreSQL's cancel request, so the backend stops at once and the connection is
// free for the next query. Every session is read-only
// (`default_transaction_read_only`), and waits for a lock a writer holds at most
// `lockTimeout` (`lock_timeout`) before the query fails as `busy`, as SQLite's
// busy timeout does. A connection the server ended is made again before its next
// query, so a restarted server costs a service no more than the queries it was
// running.
//
// Statements are sent unnamed (`PQsendQueryParams`), not prepared per connection:
// PostgreSQL plans each with its bound values, which keeps the plan a literal
// would get (a prepared statement may fall back to a generic plan).

import Foundation
import PredicateQuery
import PredicateQueryStore

/// Connections to one PostgreSQL store, lent out one query at a time.
public final class PostgresStorePool: QueryStorePool, @unchecked Sendable {
    /// The store's schema and mapping (the same for every connection).
    public let schema: Schema
    public let mapping: StoreMapping
    /// The connections, and the queries waiting for one.
    public let lending: StoreLending<PostgresStore>
    private let compileCache: QueryCache

    /// Opens `size` connections to the store pq created in the database `url` names
    /// (see `PostgresStore.open`), each read-only. `lockTimeout` bounds how long a
    /// query waits for a lock another session holds before it fails with a `busy` error.
    public init(
        _ url: String, size: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        lockTimeout: Duration? = .milliseconds(250)
    ) throws(StoreError) {
        guard size >= 1 else { throw StoreError("a pool needs at least one connection", kind: .internal) }
        var stores: [PostgresStore] = []
        let lock = lockTimeout.map { max(1, $0.wholeMilliseconds) } ?? 0
        let settings = "SET default_transaction_read_only = on; SET lock_timeout = \(lock)"
        for _ in 0..<size {
            let store = try PostgresStore.open(url)
            try store.keepSessionSetting(settings)
            stores.append(store)
        }
        // A connection the server ended (a restart, `pg_terminate_backend`) is made
        // again before its next query, with the pool's settings (the store does it,
        // see `PostgresStore+Reconnection`; done here too, as a store is lent).
        self.lending = StoreLending(stores) { store throws(StoreError) in
            try store.reconnectIfLost()
        }
        self.schema = stores[0].schema
        self.mapping = stores[0].mapping
        self.compileCache = QueryCache(schema: stores[0].schema, mapping: stores[0].mapping)
    }

    /// Compiles query text for this store (in PostgreSQL's dialect), keeping the result.
    public func compile(
        _ text: String, defaultEntity: String? = nil, summaries: Bool = false,
        limits: Limits = .standard
    ) -> CompileResult {
        compileCache.compile(text, defaultEntity: defaultEntity, summaries: summaries, limits: limits)
    }
}
