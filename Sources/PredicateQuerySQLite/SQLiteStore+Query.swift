// Running compiled queries: bind the values, step through the rows, decode each
// row into an object's key and attribute values (`RowDecoder`, shared with
// PostgreSQL in PredicateQueryStore).

import Foundation
import PredicateQuery

extension RowDecoder {
    /// A row from the current row of a SQLite statement.
    func decode(_ statement: SQLiteStatement) -> Row {
        decode { statement.column($0) }
    }
}

/// The rows of a running query, read one at a time.
public final class RowCursor {
    private let statement: SQLiteStatement
    private let decoder: RowDecoder

    init(statement: SQLiteStatement, query: CompiledQuery, store: SQLiteStore) {
        self.statement = statement
        decoder = RowDecoder(query, mapping: store.mapping)
    }

    /// The next row, or nil when there are no more.
    public func next() throws(StoreError) -> Row? {
        guard try statement.step() else { return nil }
        return decoder.decode(statement)
    }
}

extension SQLiteStore {
    /// Prepares and binds a compiled query; its rows are read from the cursor. A
    /// query compiled to count is refused (`StoreError.fetchedACount`): run it with `count`.
    public func rows(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> RowCursor {
        try query.checkFetchable()
        let statement = try prepared(query, parameters: parameters, environment: environment)
        return RowCursor(statement: statement, query: query, store: self)
    }

    /// All the rows of a compiled query.
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> [Row] {
        let cursor = try rows(query, parameters: parameters, environment: environment)
        var rows: [Row] = []
        while let row = try cursor.next() { rows.append(row) }
        return rows
    }

    /// The rows of a compiled query handed to `body` one at a time, as SQLite steps
    /// to them; `body` returns false to stop, and the statement is then reset
    /// without running further.
    public func fetch(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment(),
        each body: (Row) -> Bool
    ) throws(StoreError) {
        let cursor = try rows(query, parameters: parameters, environment: environment)
        while let row = try cursor.next() {
            guard body(row) else { return }
        }
    }

    /// The number of matches of a compiled query: a query of rows is counted (lowered
    /// again to count, never fetched), as is one compiled to count.
    public func count(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> Int64 {
        let counting = try query.countingMatchesForStore()
        let statement = try prepared(counting, parameters: parameters, environment: environment)
        guard try statement.step(), case .int(let count) = statement.column(0) else { return 0 }
        return count
    }

    /// SQLite's plan for the query, one line per step.
    public func queryPlan(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> [String] {
        let resolved = try resolve(query, parameters: parameters, environment: environment)
        let statement = try connection.prepare("EXPLAIN QUERY PLAN " + resolved.sql)
        try statement.bind(resolved.values)
        var lines: [String] = []
        while try statement.step() {
            if case .string(let detail) = statement.column(3) { lines.append(detail) }
        }
        return lines
    }

    @usableFromInline func prepared(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> SQLiteStatement {
        let resolved = try resolve(query, parameters: parameters, environment: environment)
        let statement = try connection.preparedForReuse(resolved.sql)
        try statement.bind(resolved.values)
        connection.startDeadline()
        return statement
    }

    private func resolve(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> ResolvedStatement {
        guard query.mapping.readsLike(mapping) else { throw .compiledForAnotherLayout }
        do {
            return try BindingResolver.resolve(query, parameters: parameters, environment: environment)
        } catch {
            throw StoreError(error)
        }
    }
}

extension SQLiteStore: QueryStore {}
