// Running compiled queries: bind the values, step through the rows, decode each
// row into an object's key and attribute values.

import Foundation
import PredicateQuery

/// One object read from a store.
public struct Row: Sendable {
    public var id: ObjectID
    /// Attribute values by attribute name, decoded to the attribute's type (unset ones
    /// are absent), and the values of the query's display paths by dotted name (`budget.name`).
    public var values: RowFields<Value>
    /// The key of the object each to-one relationship points to, if any.
    public var toOne: RowFields<Int64>
    /// With summaries: the label of the object each to-one relationship points to.
    public var labels: RowFields<Value>
    /// With summaries: the number of objects in each to-many relationship.
    public var counts: RowFields<Int64>
    /// The object's key as text when it is not an integer (a PostgreSQL table keyed by
    /// a uuid or text column); `id.key` is then 0.
    public var keyText: String? = nil
    /// The key of the object each to-one relationship points to, as text, where that
    /// key is not an integer (and `toOne` has none).
    public var toOneKeyText: RowFields<String>? = nil

    /// The object's key as shown: its integer key, or its text key.
    public var shownKey: String { keyText ?? String(id.key) }

    /// The key of the object a to-one relationship points to, as shown; nil for none.
    public func shownKey(of relationship: String) -> String? {
        toOne[relationship].map { String($0) } ?? toOneKeyText?[relationship]
    }
}

/// Named fields of one row. The names are shared by every row of a query, so a row
/// holds only its values: reading many rows allocates no dictionary per row.
public struct RowFields<Element: Sendable>: Sendable {
    let names: RowFieldNames
    @usableFromInline var slots: [Element?]

    /// The value of the field `name`, or nil if the row has none.
    public subscript(name: String) -> Element? {
        guard let slot = names.slots[name] else { return nil }
        return slots[slot]
    }

    /// Where the field `name` sits in this row and in every row of the same query
    /// (they share their field names), for reading many rows with `subscript(slot:)`
    /// without looking the name up in each; nil if there is no such field.
    public func slot(of name: String) -> Int? { names.slots[name] }

    /// The value in `slot` (from `slot(of:)` on a row of the same query), or nil.
    @inlinable public subscript(slot slot: Int) -> Element? {
        slots.indices.contains(slot) ? slots[slot] : nil
    }

    /// Every field that has a value, by name.
    public var dictionary: [String: Element] {
        var result: [String: Element] = [:]
        for (name, slot) in names.slots { if let value = slots[slot] { result[name] = value } }
        return result
    }
}

/// The field names of a query's rows, and the slot of each.
final class RowFieldNames: Sendable {
    let slots: [String: Int]
    /// How many fields a row has.
    var count: Int { slots.count }

    init(_ names: [String]) {
        var slots: [String: Int] = [:]
        for (index, name) in names.enumerated() { slots[name] = index }
        self.slots = slots
    }
}

extension StoreMapping {
    /// The entity each number names, for telling which entity a row of `entity`
    /// belongs to; nil when `entity`'s table holds no other entity, so every row
    /// is of `entity` itself and the number need not be read.
    func entitiesByNumber(forRowsOf entity: String) -> [Int64: String]? {
        guard self.entity(entity)?.entityNumbers != nil else { return nil }
        var names: [Int64: String] = [:]
        for (name, number) in entityNumbers { names[Int64(number)] = name }
        return names
    }
}

/// How to read each result column of a compiled query into a `Row`, worked out once per query.
/// (Shared with the PostgreSQL store, which reads its columns into the same stored forms.)
package final class RowDecoder: Sendable {
    private enum Step: Sendable {
        case primaryKey
        case entityNumber
        case skip
        case attribute(slot: Int, type: AttributeType)
        case toOne(slot: Int)
        case label(slot: Int)
        case count(slot: Int)
    }

    private let steps: [Step]
    private let entity: String
    private let entitiesByNumber: [Int64: String]?
    private let dates: DateEncoding
    private let values, toOne, labels, counts: RowFieldNames

    package init(_ query: CompiledQuery, mapping: StoreMapping) {
        entity = query.query.entity.name
        entitiesByNumber = mapping.entitiesByNumber(forRowsOf: entity)
        var steps: [Step] = []
        var values: [String] = [], toOne: [String] = [], labels: [String] = [], counts: [String] = []
        for column in query.columns {
            switch column {
            case .primaryKey: steps.append(.primaryKey)
            case .entityNumber: steps.append(entitiesByNumber == nil ? .skip : .entityNumber)
            case .attribute(let attribute):
                steps.append(.attribute(slot: values.count, type: attribute.type))
                values.append(attribute.name)
            case .toOne(let relationship):
                steps.append(.toOne(slot: toOne.count))
                toOne.append(relationship.name)
            case .toOneLabel(let relationship):
                steps.append(.label(slot: labels.count))
                labels.append(relationship.name)
            case .toManyCount(let relationship):
                steps.append(.count(slot: counts.count))
                counts.append(relationship.name)
            case .displayPath(let path):
                steps.append(.attribute(slot: values.count, type: path.attribute.type))
                values.append(path.dottedName)
            }
        }
        self.steps = steps
        dates = mapping.dateEncoding
        self.values = RowFieldNames(values)
        self.toOne = RowFieldNames(toOne)
        self.labels = RowFieldNames(labels)
        self.counts = RowFieldNames(counts)
    }

    func decode(_ statement: SQLiteStatement) -> Row {
        decode { statement.column($0) }
    }

    /// A row from its columns' stored values, read by index.
    package func decode(column: (Int32) -> Value) -> Row {
        var key: Int64 = 0
        var keyText: String?
        var entity = self.entity
        var values = [Value?](repeating: nil, count: self.values.count)
        var toOne = [Int64?](repeating: nil, count: self.toOne.count)
        var toOneText: [String?]?
        var labels = [Value?](repeating: nil, count: self.labels.count)
        var counts = [Int64?](repeating: nil, count: self.counts.count)
        for (index, step) in steps.enumerated() {
            if case .skip = step { continue }
            let stored = column(Int32(index))
            switch step {
            case .skip: break
            case .primaryKey:
                switch stored {
                case .int(let value): key = value
                case .string(let text): keyText = text
                default: break
                }
            case .entityNumber:
                if case .int(let number) = stored, let name = entitiesByNumber?[number] { entity = name }
            case .attribute(let slot, let type):
                let value = StoreValueEncoding.decode(stored, as: type, dates: dates)
                if !value.isNull { values[slot] = value }
            case .toOne(let slot):
                switch stored {
                case .int(let target): toOne[slot] = target
                case .string(let text):
                    if toOneText == nil { toOneText = [String?](repeating: nil, count: self.toOne.count) }
                    toOneText?[slot] = text
                default: break
                }
            case .label(let slot):
                if !stored.isNull { labels[slot] = stored }
            case .count(let slot):
                if case .int(let count) = stored { counts[slot] = count }
            }
        }
        return Row(
            id: ObjectID(entity, key), values: RowFields(names: self.values, slots: values),
            toOne: RowFields(names: self.toOne, slots: toOne), labels: RowFields(names: self.labels, slots: labels),
            counts: RowFields(names: self.counts, slots: counts), keyText: keyText,
            toOneKeyText: toOneText.map { RowFields(names: self.toOne, slots: $0) })
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
        do {
            return try BindingResolver.resolve(query, parameters: parameters, environment: environment)
        } catch {
            throw StoreError(error)
        }
    }
}
