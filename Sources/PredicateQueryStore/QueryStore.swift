// The one store protocol the command line (and an app) uses without knowing
// which database is behind it: SQLite's `SQLiteStore` (PredicateQuerySQLite),
// PostgreSQL's `PostgresStore` (PredicateQueryPostgres).

import PredicateQuery

/// A store that runs compiled queries.
public protocol QueryStore: AnyObject {
    /// The schema the store's tables hold.
    var schema: Schema { get }
    /// How the schema is laid out in the store's tables, and in which database.
    var mapping: StoreMapping { get }
    /// Whether the schema was inferred from the store's tables (names and types are guesses).
    var isSchemaInferred: Bool { get }
    /// How long a query may run before it is stopped with an error; nil for no limit.
    var timeout: Duration? { get set }
    /// Stops the query running on this store, from any thread.
    func interrupt()
    /// Forgets an `interrupt()` once the query it was for has ended (a store that
    /// keeps interrupt requests until then, as SQLite's does, so that one arriving
    /// before the query's statement starts is not lost).
    func clearInterrupt()
    /// All the rows of a compiled query.
    func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> [Row]
    /// The rows of a compiled query handed to `body` one at a time, as the store
    /// reads them, so that a caller need not hold them all; `body` returns false to
    /// stop, and the rest of the query is then not run.
    func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment,
        each body: (Row) -> Bool
    ) throws(StoreError)
    /// The number of matches of a compiled query: one of rows is counted (lowered
    /// again to count, never fetched), as is one compiled to count.
    func count(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> Int64
    /// The database's plan for the query, one line per step.
    func queryPlan(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> [String]
}

extension QueryStore {
    /// All the rows of a compiled query, run now.
    public func fetch(_ query: CompiledQuery, parameters: [String: ParameterValue] = [:]) throws(StoreError) -> [Row] {
        try fetch(query, parameters: parameters, environment: QueryEnvironment())
    }

    /// The rows of a compiled query, run now, handed to `body` one at a time until it returns false.
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], each body: (Row) -> Bool
    ) throws(StoreError) {
        try fetch(query, parameters: parameters, environment: QueryEnvironment(), each: body)
    }

    /// The number of matches of a compiled query, run now.
    public func count(_ query: CompiledQuery, parameters: [String: ParameterValue] = [:]) throws(StoreError) -> Int64 {
        try count(query, parameters: parameters, environment: QueryEnvironment())
    }

    /// The database's plan for the query, run now.
    public func queryPlan(_ query: CompiledQuery, parameters: [String: ParameterValue] = [:]) throws(StoreError) -> [String] {
        try queryPlan(query, parameters: parameters, environment: QueryEnvironment())
    }
}

extension QueryStore {
    /// Does nothing: a store whose `interrupt()` is not kept past the query it was
    /// for (PostgreSQL's cancel request) has nothing to forget.
    public func clearInterrupt() {}
}
