// SQLite's spelling of the lowered SQL, and its lowering decisions.
//
// SQLite is the dialect pq's meaning was written down from (README, "Meaning"): its
// arithmetic, its comparisons of Ints with Doubles and its dates (a Double of
// seconds) are pq's, so the neutral lowering serves as it is. What SQLite lacks,
// pq's string tests, are functions the store registers on its connection
// (`SQLiteDialect+Strings`).

/// SQLite: identifiers in double quotes, numbered `?NNN` placeholders (so one value
/// can be used twice), and pq's string functions registered on the connection.
struct SQLiteDialect: SQLDialect {
    func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }
    func appendQuoted(_ identifier: String, to bytes: inout [UInt8]) { SQLIdentifier.appendQuoted(identifier, to: &bytes) }

    func placeholder(_ index: Int) -> String { "?\(index + 1)" }

    func function(_ name: String) -> String { name }

    var unlimited: String? { "-1" }

    func binaryOperator(_ op: String) -> String { op }

    func truth(_ value: Bool) -> String { value ? "1" : "0" }

    var doubleType: String { "REAL" }

    var stringCollation: String? { nil }

    var placesNilsExplicitly: Bool { false }

    // MARK: Numbers

    /// SQLite's arithmetic is pq's (division by zero and NaN give NULL); it has `&`
    /// and `|` but no XOR. a ^ b is (a | b) - (a & b), exactly, where both operands
    /// are a column, a value or a cast of one; that form names each operand twice,
    /// so nested it would double the text at every level (`(x + 1) ^ 3 ^ 5 …`, 2^n
    /// copies of `x`). Anything larger goes to `pq_xor`, registered by the store,
    /// which computes the same.
    func arithmetic(_ op: ArithmeticOperator, _ lhs: SQLExpr, _ rhs: SQLExpr, type: ValueType) -> SQLExpr {
        guard op == .bitwiseXor else { return .binary(lhs, op.rawValue, rhs) }
        guard lhs.isSimpleOperand, rhs.isSimpleOperand else { return .function("pq_xor", [lhs, rhs]) }
        return .binary(.binary(lhs, "|", rhs), "-", .binary(lhs, "&", rhs))
    }

    /// SQLite's aggregates, with pq's own `pq_sum` (see `Aggregates`), which the store
    /// registers: it never overflows, and adds in the order SQLite visits the elements.
    func aggregate(
        _ function: AggregateFunction, of value: SQLExpr, type: ValueType, order: SQLExpr, partialSumLeavesRange: SQLExpr?
    ) -> SQLExpr {
        .function(function == .sum ? "pq_sum" : function.rawValue, [value])
    }

    /// `pq_sum` is pq's sum already.
    var needsPartialSumTest: Bool { false }

    /// SQLite compares an INTEGER with a REAL exactly.
    var comparesIntsWithDoublesExactly: Bool { true }

    /// SQLite's numbers are 64-bit Ints and Doubles whatever a column's declared type.
    var widensNarrowNumbers: Bool { false }

    /// SQLite stores NaN as NULL: its columns are read as they are.
    func storedDouble(_ column: SQLExpr) -> SQLExpr { column }

    func comparison(_ lhs: SQLExpr, _ op: String, _ rhs: SQLExpr) -> SQLExpr { .binary(lhs, op, rhs) }

    func nilTest(_ operand: SQLExpr) -> SQLExpr { .isNull(operand) }

    func testedValue(_ operand: SQLExpr) -> SQLExpr { operand }

    // MARK: Dates, lists, whole queries

    /// A store's dates are pq's Doubles of seconds already (`StoreValueEncoding`).
    var computesDatesAsSeconds: Bool { false }

    var acceptsEmptyInList: Bool { true }

    /// SQLite answers every query with pq's meaning.
    func checkSupported(_ query: CheckedQuery) throws(LoweringError) {}
}
