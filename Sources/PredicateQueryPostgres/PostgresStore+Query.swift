// Running compiled queries on PostgreSQL: resolve the bindings as for SQLite,
// send them as typed text parameters, and decode the streamed rows with the
// same decoder SQLite's rows go through (`RowDecoder`, in PredicateQueryStore).

import Foundation
import PredicateQuery
import PredicateQueryStore

extension PostgresStore {
    /// The statement with its parameters, ready to send.
    func statement(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> (String, [PostgresParameter]) {
        guard query.mapping.readsLike(mapping) else { throw .compiledForAnotherLayout }
        try reconnectIfLost()
        // (PostgreSQL has no empty `IN ()`: `BindingResolver` binds an empty list, or one
        // of nils only, as one NULL, which the lowering's exact form makes false.)
        try checkObjectParameters(query)
        // `now()` to the microsecond, which timestamptz holds (the clock's is finer).
        var environment = environment
        environment.now = PostgresValues.wholeMicroseconds(environment.now)
        let resolved: ResolvedStatement
        do {
            resolved = try BindingResolver.resolve(query, parameters: parameters, environment: environment)
        } catch {
            throw StoreError(error)
        }
        for parameter in parameters.values {
            switch parameter {
            case .single(let value): try PostgresValues.requireMicroseconds(value)
            case .list(let values): for value in values { try PostgresValues.requireMicroseconds(value) }
            }
        }
        var types: [ValueType] = []
        var listTypes: [ValueType] = []
        // The resolved statement's bindings: those of the query lowered again with the
        // parameters' values, when it was, whose order may differ from the compiled query's.
        for (index, binding) in resolved.bindings.enumerated() {
            switch binding {
            case .constant(_, let type), .parameter(_, let type): types.append(type)
            case .parameterList(_, let type, _):
                types.append(type)
                listTypes += Array(repeating: type, count: resolved.listSizes[index] ?? 0)
            case .currentDate: types.append(.date)
            case .prefixUpperBound, .pattern: types.append(.string)
            case .count: types.append(.int)
            }
        }
        // List values follow the other bindings, in binding order (see `BindingResolver`).
        types += listTypes
        var sent: [PostgresParameter] = []
        for (value, type) in zip(resolved.values, types) {
            sent.append(try PostgresValues.parameter(value, as: type, dates: mapping.dateEncoding))
        }
        return (resolved.sql, sent)
    }

    /// All the rows of a compiled query, read as they stream in.
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> [Row] {
        var rows: [Row] = []
        try fetch(query, parameters: parameters, environment: environment) { row in
            rows.append(row)
            return true
        }
        return rows
    }

    /// The rows of a compiled query handed to `body` one at a time, as they stream
    /// in (libpq's single-row mode); `body` returns false to stop, and the
    /// statement is then cancelled on the server rather than read to its end.
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment(),
        each body: (Row) -> Bool
    ) throws(StoreError) {
        try query.checkFetchable()
        let (sql, sent) = try statement(query, parameters: parameters, environment: environment)
        do throws(StoreError) {
            let rows = try connection.send(sql, sent)
            let decoder = RowDecoder(query, mapping: mapping)
            let dates = mapping.dateEncoding
            while let fields = try rows.next() {
                let types = rows.columnTypes
                let row = decoder.decode { index in
                    let column = Int(index)
                    guard column < fields.count, column < types.count else { return .null }
                    return PostgresValues.stored(fields[column], oid: types[column], dates: dates)
                }
                guard body(row) else {
                    connection.cancel()
                    rows.drain()
                    return
                }
            }
        } catch {
            throw Self.explained(error)
        }
    }

    /// PostgreSQL's error for a value pq's string tests refuse (see
    /// `PostgreSQLPattern.unsettledCompositionMessage`), in pq's words.
    static func explained(_ error: StoreError) -> StoreError {
        let marker = PostgreSQLPattern.unsettledCompositionMessage
        guard let range = error.message.range(of: marker) else { return error }
        let value = error.message[range.upperBound...].dropLast(error.message.hasSuffix("\"") ? 1 : 0)
        return StoreError(marker + value, kind: error.kind)
    }

    /// The number of matches of a compiled query: a query of rows is counted (lowered
    /// again to count, never fetched), as is one compiled to count.
    public func count(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> Int64 {
        let counting = try query.countingMatchesForStore()
        let (sql, sent) = try statement(counting, parameters: parameters, environment: environment)
        do throws(StoreError) {
            let rows = try connection.query(sql, sent)
            return rows.first?.first.flatMap { $0.flatMap { Int64($0) } } ?? 0
        } catch {
            throw Self.explained(error)
        }
    }

    /// PostgreSQL's plan for the query (`EXPLAIN`), one line per step.
    public func queryPlan(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> [String] {
        let (sql, sent) = try statement(query, parameters: parameters, environment: environment)
        return try connection.query("EXPLAIN " + sql, sent).compactMap { $0.first ?? nil }
    }
}
