// A small SQL syntax tree, so lowering never concatenates strings.
//
// Every value from a query is a `.binding`: a numbered placeholder whose value is
// bound when the statement runs. The only literals in generated SQL are pq's own
// structural constants (0, 1, entity numbers), never text from the query.
// Identifiers come from the store mapping and are quoted by the dialect.

/// A SQL expression.
indirect enum SQLExpr: Sendable {
    /// `alias."column"`.
    case column(alias: String, name: String)
    /// A numbered placeholder (`?3`); the number indexes `CompiledQuery.bindings`.
    case binding(Int)
    /// A structural integer constant chosen by pq (never from the query text).
    case integer(Int)
    /// A constant condition: `1`/`0` in SQLite, `true`/`false` in PostgreSQL.
    case truth(Bool)
    /// A number as an exact decimal, so an Int and a Double compare without rounding
    /// (PostgreSQL only; see `PostgreSQLDialect`).
    case exactNumber(SQLExpr, isDouble: Bool)
    /// `e COLLATE "C"`: a string compared by code point where the dialect needs saying so.
    case collated(SQLExpr)
    /// `name(arguments…)`, where `name` is pq's choice.
    case function(String, [SQLExpr])
    /// `count(*)`: the rows of a group, which SQLite counts without evaluating an argument.
    case countRows
    /// `NOT e`.
    case not(SQLExpr)
    /// `-e`.
    case negate(SQLExpr)
    /// `~e`: every bit of an integer flipped.
    case bitwiseNot(SQLExpr)
    /// `lhs op rhs` for comparison and arithmetic operators.
    case binary(SQLExpr, String, SQLExpr)
    /// `lhs = rhs` where nil reads as false, `rhs` or `lhs` being the parameter bound
    /// at `binding`: the operator is chosen when the parameter's value is known, `=`
    /// for a value and the dialect's `IS` for nil (a slot of the rendered text, `SQLText`).
    case parameterEquality(SQLExpr, SQLExpr, binding: Int)
    /// `a AND b AND …`, rendered as a balanced tree so long chains stay shallow.
    case and([SQLExpr])
    /// `a OR b OR …`, balanced likewise.
    case or([SQLExpr])
    /// `e IS NULL`.
    case isNull(SQLExpr)
    /// `e IN (a, b, …)`.
    case inList(SQLExpr, [SQLExpr])
    /// `e IN (?a, ?b, …)` for a list parameter: the placeholders are made when the
    /// list's length is known, as the query runs (a slot of the rendered text, `SQLText`).
    case inBindingList(SQLExpr, Int)
    /// `e BETWEEN low AND high`.
    case between(SQLExpr, SQLExpr, SQLExpr)
    /// `EXISTS (select)`.
    case exists(SQLSelect)
    /// `(select)` returning one value.
    case scalar(SQLSelect)
    /// `CAST(e AS REAL)`.
    case castToReal(SQLExpr)
    /// `CAST(e AS bigint)` (PostgreSQL only).
    case castToBigInt(SQLExpr)
    /// `CAST(e AS integer)` (PostgreSQL only).
    case castToInteger(SQLExpr)
    /// `CAST(EXTRACT(EPOCH FROM e) - 978307200 AS double precision)`: a `timestamptz`
    /// as pq's Double of seconds since 2001, rounded once (PostgreSQL ≥ 14 only, whose
    /// EXTRACT gives an exact numeric; see `SQLLowering+DatesAsSeconds`).
    case secondsSince2001(SQLExpr)
    /// `CAST(e AS text)`: a column whose values are compared and sorted as their text
    /// (a PostgreSQL enum type's labels; see `EntityMapping.columnsReadAsText`).
    case castToText(SQLExpr)
    /// `COALESCE(e, 0)`: a condition in which NULL means false.
    case falseIfNull(SQLExpr)
    /// `CASE WHEN condition THEN value END`: the value, or NULL where the condition fails.
    case nullUnless(SQLExpr, SQLExpr)
    /// `CASE WHEN condition THEN value ELSE otherwise END`.
    case choose(SQLExpr, then: SQLExpr, else: SQLExpr)
    /// `name(value ORDER BY key)`: an aggregate that takes its values in the key's order.
    case orderedAggregate(String, SQLExpr, orderedBy: SQLExpr)
    /// A Double that is not a number (PostgreSQL's `'NaN'`), for `NULLIF(x, NaN)`.
    case notANumber
    /// A Double attribute's column as pq reads it where the column can hold NaN
    /// (PostgreSQL's `double precision`, `real` and `numeric`): `NULLIF(c, 'NaN')`,
    /// nil where it holds NaN (see `PostgreSQLDialect+NotANumber`).
    case storedDouble(SQLExpr)
    /// `'NaN'` as an untyped literal, which takes the type of the stored column it is
    /// compared with (so an index on a `numeric` column still serves).
    case storedNotANumber
    /// `lhs op rhs` on two Doubles (`+ - * /`) giving IEEE's ±∞ and 0 where
    /// PostgreSQL's own operators raise an overflow or underflow error (PostgreSQL
    /// only; see `SQLRenderer+Doubles`).
    case doubleArithmetic(String, SQLExpr, SQLExpr)
    /// `normalize(e, NFC)`: a string composed (PostgreSQL only), unless it holds a
    /// character of the bound class `unsettled`, where the statement fails instead
    /// with the bound message followed by the text.
    case composed(SQLExpr, unsettled: SQLExpr, message: SQLExpr)
    /// A string with each character replaced by its value in the bound JSON object
    /// `map` (kept where the map has none), by a subquery over its characters; ''
    /// for '' and NULL for NULL (PostgreSQL only: pq's folded value).
    /// With `decomposingHangul`, a Hangul syllable is replaced by its decomposition.
    case foldedValue(SQLExpr, map: SQLExpr, decomposingHangul: Bool)
    /// `regexp_replace(e, class, '', 'g')`: a string without the characters of a
    /// bound class (PostgreSQL only: the scalars a modifier folds to nothing).
    case removing(SQLExpr, SQLExpr)
}

extension SQLExpr {
    /// Whether the expression is a column, a placeholder or a constant, or a cast of
    /// one: an operand a dialect may write twice without the text growing with it.
    var isSimpleOperand: Bool {
        switch self {
        case .column, .binding, .integer, .truth: true
        case .castToReal(let operand), .castToBigInt(let operand), .castToInteger(let operand): operand.isSimpleOperand
        default: false
        }
    }
}

/// A table in a FROM clause or a JOIN.
struct SQLTableReference: Sendable {
    var table: String
    var alias: String
}

/// A `[LEFT] JOIN table alias ON condition`.
struct SQLJoin: Sendable {
    var table: SQLTableReference
    var condition: SQLExpr
    /// LEFT JOIN (to-one paths, which may be nil) or JOIN (join-table rows to their objects).
    var isLeft: Bool = true
}

/// One ORDER BY term.
struct SQLOrdering: Sendable {
    var expr: SQLExpr
    var isAscending: Bool
    /// Whether the key can be NULL; where it cannot, no NULLS FIRST/LAST is written,
    /// so PostgreSQL can read the order from an index.
    var isNullable = true
}

/// A SELECT statement.
struct SQLSelect: Sendable {
    var columns: [SQLExpr]
    var from: SQLTableReference
    var joins: [SQLJoin] = []
    var filter: SQLExpr?
    /// `GROUP BY` terms; `having` filters the groups.
    var grouping: [SQLExpr] = []
    var having: SQLExpr?
    var ordering: [SQLOrdering] = []
    var limit: SQLExpr?
    var offset: SQLExpr?
}
