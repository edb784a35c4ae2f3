// What differs between SQL databases, in one place.
//
// The lowering produces a dialect-neutral `SQLExpr`; a dialect renders it, and
// decides, through the hooks below, what the lowering builds where a database
// cannot take the neutral form (its string tests, its dates, its numbers). No code
// outside a dialect asks which database it lowers for: a new database is a new
// conforming type (`SQLiteDialect`, `PostgreSQLDialect`) and a case of
// `SQLDatabase`, its public name.

/// The spelling of SQL for one database, and what its lowering decides differently.
protocol SQLDialect: Sendable {
    // MARK: Rendering

    /// A quoted identifier.
    func quote(_ identifier: String) -> String
    /// Appends `quote(identifier)`'s UTF-8 to `bytes` (the renderer's way: no `String` is made).
    func appendQuoted(_ identifier: String, to bytes: inout [UInt8])
    /// The placeholder for the binding at `index` (0-based).
    func placeholder(_ index: Int) -> String
    /// The spelling of a function pq uses, by pq's name for it.
    func function(_ name: String) -> String
    /// The text that stands for "no limit" before an OFFSET, if the dialect needs one.
    var unlimited: String? { get }
    /// The spelling of a binary operator pq writes in SQLite's form (`IS`, `IS NOT`, `<`, …).
    func binaryOperator(_ op: String) -> String
    /// A constant condition.
    func truth(_ value: Bool) -> String
    /// The type a value is cast to for Double arithmetic.
    var doubleType: String { get }
    /// The collation strings are compared in, when the database's default may not be by code point.
    var stringCollation: String? { get }
    /// Whether ORDER BY must say where nils go (pq puts them first when ascending).
    var placesNilsExplicitly: Bool { get }

    // MARK: Numbers

    /// pq's `lhs op rhs` on two values of `type` (both Int, or both Double).
    func arithmetic(_ op: ArithmeticOperator, _ lhs: SQLExpr, _ rhs: SQLExpr, type: ValueType) -> SQLExpr
    /// pq's aggregate of the element values `value`, of `type`; `order` is the
    /// elements' key, the order pq adds them in. For an `@sum` of Ints in a dialect
    /// that `needsPartialSumTest`, `partialSumLeavesRange` is the condition that one
    /// of pq's partial sums, in key order, leaves Int's range.
    func aggregate(
        _ function: AggregateFunction, of value: SQLExpr, type: ValueType, order: SQLExpr, partialSumLeavesRange: SQLExpr?
    ) -> SQLExpr
    /// Whether an `@sum` of Ints needs `partialSumLeavesRange` (SQLExpr subqueries the lowering builds).
    var needsPartialSumTest: Bool { get }
    /// Whether the database compares an Int with a Double exactly. Where it does not
    /// (it rounds the Int to a Double), the lowering compares such pairs as exact
    /// decimals (`SQLExpr.exactNumber`).
    var comparesIntsWithDoublesExactly: Bool { get }
    /// Whether a number column of a type narrower than pq's Int64 or Double
    /// (`smallint`, `integer`, `real`, `numeric`) must be widened to it for arithmetic
    /// and sums, which the database would otherwise compute at the column's width.
    var widensNarrowNumbers: Bool { get }
    /// A Double attribute's column as pq reads it: nil where it holds NaN.
    func storedDouble(_ column: SQLExpr) -> SQLExpr
    /// `lhs op rhs` for a comparison operator pq writes in SQLite's form (`=`, `<`, `IS`, …).
    func comparison(_ lhs: SQLExpr, _ op: String, _ rhs: SQLExpr) -> SQLExpr
    /// `operand IS NULL`.
    func nilTest(_ operand: SQLExpr) -> SQLExpr
    /// The value an `IN` list or a range tests, against members or bounds that are never NaN.
    func testedValue(_ operand: SQLExpr) -> SQLExpr

    // MARK: Dates

    /// Whether the database's dates are not pq's Double of seconds since 2001, so
    /// that wherever a date is computed (`d + 1h`), every date taking part is lowered
    /// to those seconds and the duration added as pq adds (`SQLLowering+DatesAsSeconds`).
    var computesDatesAsSeconds: Bool { get }

    // MARK: Strings

    /// pq's folded value of a string under `[c]`/`[d]` (what the evaluator's
    /// `StringFunctions.fold` gives), for sort keys and comparisons of folded strings.
    /// `options` is not empty.
    func folded(_ text: SQLExpr, _ options: StringOptions, in lowering: inout SQLLowering) -> SQLExpr
    /// `lhs ==[c] rhs` or `!=` (any non-empty `options`) in the dialect's own form, or
    /// nil where the neutral form (both sides `folded`, compared) serves. Each side
    /// comes with whether it may be NULL.
    func foldedEquality(
        _ op: ComparisonOperator, _ lhs: (SQLExpr, Bool), _ rhs: (SQLExpr, Bool), _ options: StringOptions,
        in lowering: inout SQLLowering
    ) throws(LoweringError) -> SQLExpr?
    /// The string test `text op needle` with `options`: a condition that may be NULL
    /// where a side is.
    func stringTest(
        _ op: StringOperator, _ text: SQLExpr, _ needle: SQLExpr, _ options: StringOptions, in lowering: inout SQLLowering
    ) throws(LoweringError) -> SQLExpr

    // MARK: Lists

    /// Whether the database takes an empty list, `x IN ()`. Where it does not, a list
    /// parameter given no values is bound as one NULL (`BindingResolver`), which makes
    /// the test NULL: the lowering then makes it exact, so that it stands for false.
    var acceptsEmptyInList: Bool { get }

    // MARK: Whole queries

    /// Throws where the database cannot answer `query` with pq's meaning, naming the
    /// first form it cannot answer; runs before the query is lowered.
    func checkSupported(_ query: CheckedQuery) throws(LoweringError)
}
