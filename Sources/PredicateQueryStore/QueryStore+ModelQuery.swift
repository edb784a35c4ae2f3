// A typed query run on any store: `ModelQuery<Budget>` from the builder
// (`Budget.filter { $0.limit > 100 }`), from `ModelQuery(parsing:)`, or converted
// from a `#Predicate`, compiled for the store's own schema and layout — the same
// call on SQLite and PostgreSQL, and on their pools.

import PredicateQuery

extension QueryStore {
    /// The rows of `query`, compiled for this store's schema and layout and run now,
    /// with its values (those the builder captured, and those given with
    /// `binding(_:)` or here, which win) bound.
    ///
    /// - Throws: `ModelQueryError` with every diagnostic if the query does not compile
    ///   for this store (a property its tables do not have, say); `StoreError` if
    ///   running it fails.
    public func fetch<Model>(_ query: ModelQuery<Model>, parameters: [String: ParameterValue] = [:]) throws -> [Row] {
        try fetch(Self.compiled(query, schema: schema, mapping: mapping, count: false), parameters: query.values(parameters))
    }

    /// The number of objects `query` selects, compiled for this store and run now.
    ///
    /// - Throws: as `fetch(_:parameters:)` does.
    public func count<Model>(_ query: ModelQuery<Model>, parameters: [String: ParameterValue] = [:]) throws -> Int64 {
        try count(Self.compiled(query, schema: schema, mapping: mapping, count: true), parameters: query.values(parameters))
    }

    /// `query` compiled for `schema` and `mapping`, or the error that says why it does not compile.
    static func compiled<Model>(
        _ query: ModelQuery<Model>, schema: Schema, mapping: StoreMapping, count: Bool
    ) throws(ModelQueryError) -> CompiledQuery {
        let result = query.compile(schema: schema, mapping: mapping, count: count)
        guard let compiled = result.compiled, !result.diagnostics.containsErrors else {
            throw ModelQueryError(diagnostics: result.diagnostics, source: query.text)
        }
        return compiled
    }
}

extension QueryStorePool {
    /// The rows of `query`, compiled for the pool's schema and layout, on a store of
    /// the pool within `budget` (see `withStore`).
    ///
    /// - Throws: `ModelQueryError` if the query does not compile for this store,
    ///   before any wait; `StoreError` if waiting or running fails.
    public func fetch<Model>(
        _ query: ModelQuery<Model>, parameters: [String: ParameterValue] = [:], budget: QueryBudget
    ) async throws -> [Row] {
        let compiled = try Store.compiled(query, schema: schema, mapping: mapping, count: false)
        return try await fetch(compiled, parameters: query.values(parameters), budget: budget)
    }

    /// The number of objects `query` selects, on a store of the pool within `budget`.
    ///
    /// - Throws: as `fetch(_:parameters:budget:)` does.
    public func count<Model>(
        _ query: ModelQuery<Model>, parameters: [String: ParameterValue] = [:], budget: QueryBudget
    ) async throws -> Int64 {
        let compiled = try Store.compiled(query, schema: schema, mapping: mapping, count: true)
        return try await count(compiled, parameters: query.values(parameters), budget: budget)
    }
}

extension ModelQuery {
    /// The values a run of the query binds: its own, then `given` (which win).
    fileprivate func values(_ given: [String: ParameterValue]) -> [String: ParameterValue] {
        allParameterValues.merging(given) { _, given in given }
    }
}
