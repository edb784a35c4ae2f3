// Running compiled queries: bind the values, step through the rows, decode each
// row into an object's key and attribute values.

import Foundation
import PredicateQuery

/// One object read from a store.
public struct Row: Sendable {
    public var id: ObjectID
    /// Attribute values by attribute name, decoded to the attribute's type.
    public var values: [String: Value]
    /// The key of the object each to-one relationship points to, if any.
    public var toOne: [String: Int64]
    /// With summaries: the label of the object each to-one relationship points to.
    public var labels: [String: Value] = [:]
    /// With summaries: the number of objects in each to-many relationship.
    public var counts: [String: Int64] = [:]
}

/// The rows of a running query, read one at a time.
public final class RowCursor {
    private let statement: SQLiteStatement
    private let query: CompiledQuery
    private let store: SQLiteStore

    init(statement: SQLiteStatement, query: CompiledQuery, store: SQLiteStore) {
        self.statement = statement
        self.query = query
        self.store = store
    }

    /// The next row, or nil when there are no more.
    public func next() throws(StoreError) -> Row? {
        guard try statement.step() else { return nil }
        return store.decodeRow(statement, query)
    }
}

extension SQLiteStore {
    /// Prepares and binds a compiled query; its rows are read from the cursor.
    public func rows(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> RowCursor {
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

    /// The number of matches of a query compiled with `count: true`.
    public func count(
        _ query: CompiledQuery, parameters: [String: ParameterValue] = [:], environment: QueryEnvironment = QueryEnvironment()
    ) throws(StoreError) -> Int64 {
        let statement = try prepared(query, parameters: parameters, environment: environment)
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

    private func prepared(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> SQLiteStatement {
        let resolved = try resolve(query, parameters: parameters, environment: environment)
        let statement = try connection.prepare(resolved.sql)
        try statement.bind(resolved.values)
        connection.startDeadline()
        return statement
    }

    private func resolve(
        _ query: CompiledQuery, parameters: [String: ParameterValue], environment: QueryEnvironment
    ) throws(StoreError) -> ResolvedStatement {
        do {
            return try BindingResolver.resolve(query, parameters: parameters, environment: environment)
        } catch {
            throw StoreError(error.message)
        }
    }

    func decodeRow(_ statement: SQLiteStatement, _ query: CompiledQuery) -> Row {
        var key: Int64 = 0
        var entity = query.query.entity.name
        var values: [String: Value] = [:]
        var toOne: [String: Int64] = [:]
        var labels: [String: Value] = [:]
        var counts: [String: Int64] = [:]
        for (index, column) in query.columns.enumerated() {
            let stored = statement.column(Int32(index))
            switch column {
            case .primaryKey:
                if case .int(let value) = stored { key = value }
            case .entityNumber:
                if case .int(let number) = stored,
                    let name = mapping.entityNumbers.first(where: { $0.value == Int(number) })?.key
                {
                    entity = name
                }
            case .attribute(let attribute):
                let value = StoreValueEncoding.decode(stored, as: attribute.type, dates: mapping.dateEncoding)
                if !value.isNull { values[attribute.name] = value }
            case .toOne(let relationship):
                if case .int(let target) = stored { toOne[relationship.name] = target }
            case .toOneLabel(let relationship):
                if !stored.isNull { labels[relationship.name] = stored }
            case .toManyCount(let relationship):
                if case .int(let count) = stored { counts[relationship.name] = count }
            }
        }
        return Row(id: ObjectID(entity, key), values: values, toOne: toOne, labels: labels, counts: counts)
    }
}
