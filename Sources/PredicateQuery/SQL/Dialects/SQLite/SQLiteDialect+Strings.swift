// SQLite's string tests: functions the store registers on its connection
// (`pq_fold`, `pq_contains`, `pq_hasprefix`, `pq_hassuffix`, `pq_like`,
// `pq_matches`), implemented once in Swift and shared with the in-memory evaluator,
// so both fold case and diacritics the same Unicode-aware way. SQLite's own LIKE
// folds ASCII only and is therefore not used. A case-sensitive prefix test against a
// bound value becomes a range, `x >= ?1 AND x < ?2`, which SQLite answers with an
// index on x.

extension SQLiteDialect {
    /// `pq_fold(text, options)`.
    func folded(_ text: SQLExpr, _ options: StringOptions, in lowering: inout SQLLowering) -> SQLExpr {
        .function("pq_fold", [text, .integer(Int(options.rawValue))])
    }

    /// `pq_fold` on both sides serves.
    func foldedEquality(
        _ op: ComparisonOperator, _ lhs: (SQLExpr, Bool), _ rhs: (SQLExpr, Bool), _ options: StringOptions,
        in lowering: inout SQLLowering
    ) -> SQLExpr? {
        nil
    }

    func stringTest(
        _ op: StringOperator, _ text: SQLExpr, _ needle: SQLExpr, _ options: StringOptions, in lowering: inout SQLLowering
    ) -> SQLExpr {
        let flags = SQLExpr.integer(Int(options.rawValue))
        switch op {
        case .contains where options.isEmpty:
            return .binary(.function("instr", [text, needle]), ">", .integer(0))
        case .contains:
            return .function("pq_contains", [text, needle, flags])
        case .beginsWith:
            if options.isEmpty, case .binding(let index) = needle {
                let upperBound = lowering.bind(.prefixUpperBound(of: index))
                return .and([.binary(text, ">=", needle), .binary(text, "<", upperBound)])
            }
            return .function("pq_hasprefix", [text, needle, flags])
        case .endsWith:
            return .function("pq_hassuffix", [text, needle, flags])
        case .like:
            return .function("pq_like", [text, needle, flags])
        case .matches:
            return .function("pq_matches", [text, needle, flags])
        }
    }
}
