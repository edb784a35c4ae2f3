// PostgreSQL's string tests and folded values, as the lowering asks for them.
//
// A plain (case- and diacritic-sensitive) `contains`, prefix or suffix test is
// PostgreSQL's own `strpos`, `starts_with` and `right(x, length(?1)) = ?1`; every
// other test, and pq's folded value, is matched against a pattern made in Swift
// from the needle (`SQLLowering+PostgreSQLStrings`).

extension PostgreSQLDialect {
    /// pq's folded value, computed by PostgreSQL through a map of pq's folds.
    func folded(_ text: SQLExpr, _ options: StringOptions, in lowering: inout SQLLowering) -> SQLExpr {
        lowering.postgreSQLFolded(text, options)
    }

    /// Against a needle whose value is bound (a literal or a parameter), a pattern of
    /// its folds; between two stored values, the neutral form on folded values.
    func foldedEquality(
        _ op: ComparisonOperator, _ lhs: (SQLExpr, Bool), _ rhs: (SQLExpr, Bool), _ options: StringOptions,
        in lowering: inout SQLLowering
    ) throws(LoweringError) -> SQLExpr? {
        guard lowering.isBoundNeedle(lhs.0) || lowering.isBoundNeedle(rhs.0) else { return nil }
        return try lowering.postgreSQLFoldedEquality(op, lhs, rhs, options)
    }

    func stringTest(
        _ op: StringOperator, _ text: SQLExpr, _ needle: SQLExpr, _ options: StringOptions, in lowering: inout SQLLowering
    ) throws(LoweringError) -> SQLExpr {
        switch op {
        case .contains where options.isEmpty:
            // `instr` is spelled `strpos` (`function(_:)`).
            return .binary(.function("instr", [text, needle]), ">", .integer(0))
        case .beginsWith where options.isEmpty:
            return .function("starts_with", [text, needle])
        case .endsWith where options.isEmpty:
            return .binary(.function("right", [text, .function("length", [needle])]), "=", needle)
        default:
            // `like`, `matches`, and any test with `[c]`/`[d]`.
            return try lowering.postgreSQLStringTest(op, text, needle, options)
        }
    }
}
