// The output of lowering: SQL text, the values to bind, and how to read the rows.

import Foundation

/// A value to bind to a placeholder, as lowering knows it; `BindingResolver` turns
/// it into a concrete value when the query runs.
package enum SQLBinding: Sendable, Hashable {
    /// A constant of the query (a literal, an enum case's raw value, a date).
    case constant(Value, ValueType)
    /// A parameter, bound by name when the query runs.
    case parameter(String, ValueType)
    /// A list parameter: its values get placeholders of their own when the query runs;
    /// with `folding`, each String is bound folded (`StringFunctions.fold`, which is
    /// what SQLite's `pq_fold` runs), for `x in[c] $list`.
    case parameterList(String, ValueType, folding: StringOptions = [])
    /// `now()` or `today()`.
    case currentDate(BuiltinFunction)
    /// The smallest string greater than every string that starts with the string
    /// bound at another index: the upper bound of an index-friendly prefix test.
    case prefixUpperBound(of: Int)
    /// `limit`/`offset` given as a parameter.
    case count(String)
    /// The pattern PostgreSQL matches with, made from the string bound at another
    /// index when its value is known (see `PostgreSQLPattern`).
    case pattern(PostgreSQLPattern, of: Int)
}

/// What one column of a result row holds.
public enum ResultColumn: Sendable, Hashable {
    /// The object's primary key (`Z_PK` in the Core Data layout).
    case primaryKey
    /// The object's entity number (`Z_ENT`), which tells sub-entities sharing one table apart.
    case entityNumber
    /// The stored value of an attribute.
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
    /// index i shows as `?i[]` until the list's length is known, and the operator of
    /// an equality with the parameter bound at index i as `=?i=` until its value is
    /// known (`=`, or `IS` for nil: see `statement(listSizes:nilBindings:)`). Set by
    /// hand (a test breaking the SQL on purpose), its markers are read as slots again.
    public var sql: String {
        get { text.marked }
        set { text = SQLText(parsing: newValue) }
    }
    /// The statement as rendered, with a slot for each marker.
    var text: SQLText
    /// One entry per placeholder, in order.
    package var bindings: [SQLBinding]
    /// What the columns of each row are (empty for a count).
    public var columns: [ResultColumn]
    /// Whether the statement returns one row holding the number of matches.
    public var isCount: Bool
    /// The checked query this was lowered from.
    public var query: CheckedQuery
    /// The layout the query was lowered for.
    public var mapping: StoreMapping
    /// Whether it was lowered with summaries (see `SQLLowering.lower`).
    public var hasSummaries = false
    /// Whether the SQL would take another shape with the parameters' values known
    /// (an aggregate compared with a parameter, which with a literal could read the
    /// elements in one pass): the binding step then lowers it again with the values,
    /// still bound, in place of the parameters.
    public var shapeDependsOnValues = false

    /// The dialect the SQL is written in: the mapping's database's.
    var dialect: any SQLDialect { mapping.database.dialect }

    /// The placeholder of the value at `index` (0-based) of the statement to run
    /// (`ResolvedStatement.values`), as the dialect writes it: `?1` in SQLite, `$1`
    /// in PostgreSQL.
    public func placeholder(_ index: Int) -> String { dialect.placeholder(index) }
}

extension CompiledQuery {
    /// The same query lowered to count its matches (one row holding the number):
    /// itself when it already counts. What a store's `count` runs for a query of
    /// rows, so that a query is compiled once and may be fetched or counted.
    package func countingMatches() throws(LoweringError) -> CompiledQuery {
        if isCount { return self }
        return try SQLLowering.lower(query, mapping: mapping, count: true)
    }

    /// How a list parameter's placeholders are marked in `sql`.
    static func listMarker(_ index: Int) -> String { "?\(index + 1)[]" }

    /// The operator of `x == $p` where nil reads as false, marked in `sql` until the
    /// value of the parameter bound at `index` is known: `=` for a value, which
    /// SQLite's planner can answer with an index (and which turns a LEFT JOIN into
    /// a join), and the null-safe `IS` for nil.
    static func equalityMarker(_ index: Int) -> String { "=?\(index + 1)=" }

    /// The statement to run when each list parameter (by binding index) has the
    /// given number of values: each list's slot gets that many placeholders,
    /// numbered after all the others, in binding order. Each equality with a
    /// parameter becomes `IS` (PostgreSQL: `IS NOT DISTINCT FROM`) if the value
    /// bound at its index is nil (in `nilBindings`), and `=` otherwise. The dialect
    /// writes both as the slots of the rendered text are filled.
    public func statement(listSizes: [Int: Int], nilBindings: Set<Int> = []) -> String {
        var firstPlaceholder: [Int: Int] = [:]
        var next = bindings.count
        for index in listSizes.keys.sorted() {
            firstPlaceholder[index] = next
            next += listSizes[index] ?? 0
        }
        let dialect = self.dialect
        return text.joined { slot in
            switch slot {
            case .list(let index):
                guard let first = firstPlaceholder[index], let count = listSizes[index] else { return slot.marker }
                return (first..<first + count).map(dialect.placeholder).joined(separator: ", ")
            case .equality(let index):
                return nilBindings.contains(index) ? dialect.binaryOperator("IS") : "="
            }
        }
    }

    /// SQL text with its equality markers (outside quoted identifiers) resolved:
    /// `nilEquality` (the dialect's null-safe equality) where the value is nil, `=`
    /// elsewhere. For SQL given as text; pq's own is resolved from its slots.
    package static func resolvingEqualities(
        in text: String, nilBindings: Set<Int>, nilEquality: String = "IS"
    ) -> String {
        SQLText(parsing: text).joined { slot in
            guard case .equality(let index) = slot else { return slot.marker }
            return nilBindings.contains(index) ? nilEquality : "="
        }
    }
}
