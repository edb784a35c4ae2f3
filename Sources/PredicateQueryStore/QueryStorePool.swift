// The one pool protocol a service uses without knowing which database is behind
// it: SQLite's `SQLiteStorePool` (PredicateQuerySQLite), PostgreSQL's
// `PostgresStorePool` (PredicateQueryPostgres). Both lend their stores through `StoreLending`, so both
// keep the same guarantees: a bounded number of connections, a bounded wait that
// fails with `poolExhausted`, one `QueryBudget` over waiting and running, and a
// cancelled task that stops its query at once.

import PredicateQuery

/// A pool of connections to one store, lent one query at a time.
public protocol QueryStorePool: AnyObject, Sendable {
    /// The kind of store the pool lends: `SQLiteStore` or `PostgresStore`.
    associatedtype Store: QueryStore & SendableMetatype
    /// The stores, and who waits for them.
    var lending: StoreLending<Store> { get }
    /// The store's schema (the same for every connection).
    var schema: Schema { get }
    /// How the schema is laid out in the store's tables, and in which database.
    var mapping: StoreMapping { get }
    /// Compiles query text for this store, keeping the result. The result may be
    /// fetched or counted (`count` counts a query of rows).
    func compile(
        _ text: String, defaultEntity: String?, summaries: Bool, limits: Limits
    ) -> CompileResult
}

extension QueryStorePool {
    /// The number of connections.
    public var size: Int { lending.size }
    /// How many queries wait for a connection now (for a service's queue bound and logs).
    public var waiting: Int { lending.waiting }
    /// How many connections are free now.
    public var available: Int { lending.available }

    /// Compiles query text for this store (see `compile(_:defaultEntity:summaries:limits:)`).
    public func compile(_ text: String, defaultEntity: String? = nil) -> CompileResult {
        compile(text, defaultEntity: defaultEntity, summaries: false, limits: .standard)
    }

    /// Runs `body` on a store of the pool, on a thread of the pool's own, within
    /// `budget`: waiting for a free connection and running both count against it.
    /// The store's `timeout` is the time left when `body` starts; cancelling the
    /// calling task interrupts the query.
    public func withStore<Result: Sendable>(
        budget: QueryBudget, _ body: @escaping @Sendable (Store) throws(StoreError) -> Result
    ) async throws(StoreError) -> Result {
        try await lending.withStore(budget: budget, body)
    }

    /// Runs a compiled query on a store of the pool (see `withStore`).
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:],
        environment: QueryEnvironment = QueryEnvironment(), budget: QueryBudget
    ) async throws(StoreError) -> [Row] {
        try Self.checkBindings(query, parameters: parameters, environment: environment)
        return try await withStore(budget: budget) { store throws(StoreError) in
            try store.fetch(query, parameters: parameters, environment: environment)
        }
    }

    /// The number of matches of a compiled query (of rows, or compiled to count), on a store of the pool.
    public func count(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:],
        environment: QueryEnvironment = QueryEnvironment(), budget: QueryBudget
    ) async throws(StoreError) -> Int64 {
        try Self.checkBindings(query, parameters: parameters, environment: environment)
        return try await withStore(budget: budget) { store throws(StoreError) in
            try store.count(query, parameters: parameters, environment: environment)
        }
    }

    /// Values that cannot be bound are the caller's mistake, told before any wait.
    private static func checkBindings(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) {
        do {
            _ = try BindingResolver.resolve(query, parameters: parameters, environment: environment)
        } catch {
            throw StoreError(error)
        }
    }
}
