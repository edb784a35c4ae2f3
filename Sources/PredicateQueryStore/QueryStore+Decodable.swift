// Rows decoded into an app's own `Decodable` types, on every store and pool:
//
//     struct Budget: Decodable { var id: Int64; var name: String; var limit: Double? }
//     let budgets = try store.fetch(query, as: Budget.self)
//
// See `RowValueDecoder` for what a property reads. (SQLite also decodes without
// building rows, through its own `RowDecodable`; this way is the same everywhere.)

import PredicateQuery

extension QueryStore {
    /// The rows of a compiled query, run now, each decoded into a `Record`: a property
    /// named like an attribute reads its value, one named like a to-one relationship
    /// reads the key of the object it points to, and `id` reads the object's key (where
    /// no attribute is named `id`). An optional property is nil where the value is unset.
    ///
    /// - Throws: `StoreError` if running the query fails, or if a row does not decode
    ///   (a property the rows do not have, a value of another type, an unset value in a
    ///   property that is not optional); the message names the property.
    public func fetch<Record: Decodable>(
        _ query: CompiledQuery, as type: Record.Type, parameters: [String: ParameterValue] = [:]
    ) throws(StoreError) -> [Record] {
        try query.checkFetchable()
        return try Self.decode(fetch(query, parameters: parameters), as: type, entity: query.query.entity.name)
    }

    /// The rows of a typed query, compiled for this store and run now, each decoded
    /// into a `Record` (see `fetch(_:as:parameters:)`).
    ///
    /// - Throws: `ModelQueryError` if the query does not compile for this store;
    ///   `StoreError` if running it or decoding a row fails.
    public func fetch<Model, Record: Decodable>(
        _ query: ModelQuery<Model>, as type: Record.Type, parameters: [String: ParameterValue] = [:]
    ) throws -> [Record] {
        try Self.decode(fetch(query, parameters: parameters), as: type, entity: Model.entityName)
    }

    /// `rows`, each decoded into a `Record`.
    static func decode<Record: Decodable>(_ rows: [Row], as type: Record.Type, entity: String) throws(StoreError)
        -> [Record]
    {
        var records: [Record] = []
        records.reserveCapacity(rows.count)
        for row in rows {
            do {
                records.append(try Record(from: RowValueDecoder(row: row)))
            } catch let error as DecodingError {
                throw StoreError("cannot decode a row of \(entity) as \(Record.self): \(Self.describe(error))")
            } catch {
                throw StoreError("cannot decode a row of \(entity) as \(Record.self): \(error)")
            }
        }
        return records
    }

    /// What a decoding error says, without Swift's dump of its context.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.debugDescription
        @unknown default:
            "\(error)"
        }
    }
}

extension QueryStorePool {
    /// The rows of a compiled query, on a store of the pool within `budget`, each
    /// decoded into a `Record` (see `QueryStore.fetch(_:as:parameters:)`).
    public func fetch<Record: Decodable & Sendable>(
        _ query: CompiledQuery, as type: Record.Type, parameters: [String: ParameterValue] = [:], budget: QueryBudget
    ) async throws(StoreError) -> [Record] {
        try query.checkFetchable()
        return try Store.decode(
            await fetch(query, parameters: parameters, budget: budget), as: type, entity: query.query.entity.name)
    }

    /// The rows of a typed query, on a store of the pool within `budget`, each decoded into a `Record`.
    ///
    /// - Throws: `ModelQueryError` if the query does not compile for this store;
    ///   `StoreError` if waiting, running or decoding fails.
    public func fetch<Model, Record: Decodable & Sendable>(
        _ query: ModelQuery<Model>, as type: Record.Type, parameters: [String: ParameterValue] = [:],
        budget: QueryBudget
    ) async throws -> [Record] {
        try Store.decode(await fetch(query, parameters: parameters, budget: budget), as: type, entity: Model.entityName)
    }
}
