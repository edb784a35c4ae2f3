// What differs between SQL databases, in one place.
//
// The lowering produces a dialect-neutral `SQLExpr`; a dialect renders it. A
// second database is a new conforming type in a new file (`PostgreSQLDialect`).

/// The spelling of SQL for one database.
protocol SQLDialect: Sendable {
    /// A quoted identifier.
    func quote(_ identifier: String) -> String
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
    /// Which database this dialect is for.
    var database: SQLDatabase { get }
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
    /// A Double attribute's column as pq reads it: nil where it holds NaN.
    func storedDouble(_ column: SQLExpr) -> SQLExpr
    /// `lhs op rhs` for a comparison operator pq writes in SQLite's form (`=`, `<`, `IS`, …).
    func comparison(_ lhs: SQLExpr, _ op: String, _ rhs: SQLExpr) -> SQLExpr
    /// `operand IS NULL`.
    func nilTest(_ operand: SQLExpr) -> SQLExpr
    /// The value an `IN` list or a range tests, against members or bounds that are never NaN.
    func testedValue(_ operand: SQLExpr) -> SQLExpr
}

extension SQLDialect {
    func binaryOperator(_ op: String) -> String { op }
    func truth(_ value: Bool) -> String { value ? "1" : "0" }
    var doubleType: String { "REAL" }
    var stringCollation: String? { nil }
    var placesNilsExplicitly: Bool { false }
    var database: SQLDatabase { .sqlite }
    var needsPartialSumTest: Bool { false }

    /// SQLite stores NaN as NULL: its columns are read as they are.
    func storedDouble(_ column: SQLExpr) -> SQLExpr { column }
    func comparison(_ lhs: SQLExpr, _ op: String, _ rhs: SQLExpr) -> SQLExpr { .binary(lhs, op, rhs) }
    func nilTest(_ operand: SQLExpr) -> SQLExpr { .isNull(operand) }
    func testedValue(_ operand: SQLExpr) -> SQLExpr { operand }

    /// SQLite's arithmetic is pq's (division by zero and NaN give NULL); it has `&`
    /// and `|` but no XOR, and a ^ b is (a | b) - (a & b), exactly.
    func arithmetic(_ op: ArithmeticOperator, _ lhs: SQLExpr, _ rhs: SQLExpr, type: ValueType) -> SQLExpr {
        if op == .bitwiseXor { return .binary(.binary(lhs, "|", rhs), "-", .binary(lhs, "&", rhs)) }
        return .binary(lhs, op.rawValue, rhs)
    }

    /// SQLite's aggregates, with pq's own `pq_sum` (see `Aggregates`), which the store
    /// registers: it never overflows, and adds in the order SQLite visits the elements.
    func aggregate(
        _ function: AggregateFunction, of value: SQLExpr, type: ValueType, order: SQLExpr, partialSumLeavesRange: SQLExpr?
    ) -> SQLExpr {
        .function(function == .sum ? "pq_sum" : function.rawValue, [value])
    }
}

/// SQLite: identifiers in double quotes, numbered `?NNN` placeholders (so one value
/// can be used twice), and pq's string functions registered on the connection.
struct SQLiteDialect: SQLDialect {
    func quote(_ identifier: String) -> String {
        // This runs for every column named, so the usual name (no quote in it)
        // takes no detour through splitting.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        var quoted = "\""
        quoted.reserveCapacity(identifier.utf8.count + 4)
        for (index, part) in identifier.split(separator: "\"", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { quoted += "\"\"" }
            quoted += part
        }
        quoted += "\""
        return quoted
    }

    func placeholder(_ index: Int) -> String { "?\(index + 1)" }

    func function(_ name: String) -> String { name }

    var unlimited: String? { "-1" }
}
