// The output of lowering: SQL text, the values to bind, and how to read the rows.

import Foundation

/// A value to bind to a placeholder, as lowering knows it; `BindingResolver` turns
/// it into a concrete value when the query runs.
public enum SQLBinding: Sendable, Hashable {
    /// A constant of the query (a literal, an enum case's raw value, a date).
    case constant(Value, ValueType)
    /// A parameter, bound by name when the query runs.
    case parameter(String, ValueType)
    /// A list parameter: its values get placeholders of their own when the query runs.
    case parameterList(String, ValueType)
    /// `now()` or `today()`.
    case currentDate(BuiltinFunction)
    /// The smallest string greater than every string that starts with the string
    /// bound at another index: the upper bound of an index-friendly prefix test.
    case prefixUpperBound(of: Int)
    /// `limit`/`offset` given as a parameter.
    case count(String)
}

/// What one column of a result row holds.
public enum ResultColumn: Sendable, Hashable {
    case primaryKey
    case entityNumber
    case attribute(Attribute)
    /// The key of the object a to-one relationship points to.
    case toOne(Relationship)
    /// The label (first String attribute) of the object a to-one relationship points to.
    case toOneLabel(Relationship)
    /// The number of objects in a to-many relationship.
    case toManyCount(Relationship)
    /// An attribute reached through to-one relationships, for display: its value,
    /// nil when a relationship on the way is nil.
    case displayPath(AttributePath)
}

/// A query lowered to SQL for one store mapping.
public struct CompiledQuery: Sendable {
    /// The SELECT statement, with numbered placeholders; a list parameter bound at
    /// index i shows as `?i[]` until the list's length is known.
    public var sql: String
    /// One entry per placeholder, in order.
    public var bindings: [SQLBinding]
    /// What the columns of each row are (empty for a count).
    public var columns: [ResultColumn]
    /// Whether the statement returns one row holding the number of matches.
    public var isCount: Bool
    /// The checked query this was lowered from.
    public var query: CheckedQuery
    public var mapping: StoreMapping
}

extension CompiledQuery {
    /// How a list parameter's placeholders are marked in `sql`.
    static func listMarker(_ index: Int) -> String { "?\(index + 1)[]" }

    /// The statement to run when each list parameter (by binding index) has the
    /// given number of values: each list's marker becomes that many placeholders,
    /// numbered after all the others, in binding order.
    public func statement(listSizes: [Int: Int]) -> String {
        var text = sql
        var next = bindings.count + 1
        let sign = mapping.database == .postgreSQL ? "$" : "?"
        for index in listSizes.keys.sorted() {
            let count = listSizes[index] ?? 0
            let placeholders = (0..<count).map { "\(sign)\(next + $0)" }.joined(separator: ", ")
            next += count
            text = text.replacingOccurrences(of: Self.listMarker(index), with: placeholders)
        }
        return text
    }
}
