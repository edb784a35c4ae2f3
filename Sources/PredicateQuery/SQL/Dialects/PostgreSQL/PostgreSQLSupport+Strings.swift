// Which string tests PostgreSQL answers with pq's meaning, and why the rest are refused.
//
// `like`, `matches` and every `[c]`/`[d]` test are matched against a pattern pq
// makes from the needle (`PostgreSQLPattern`), so the needle must be known before
// the query runs: a literal, checked here, or a parameter, checked when it is
// bound. Ordering by a folded value (`<[c]`, sorting with `[c]`) and `==[c]` between
// two stored values compare folded values, computed by PostgreSQL from a map pq
// makes (`PostgreSQLPattern.foldMap`). What stays refused: a needle or `like`
// pattern read from the store (`contains[c]` and the like need pq's match
// boundaries, not just folded values), `matches[c]` and `[cd]`, and the
// regular-expression constructs ARE does not share with ICU.

extension PostgreSQLSupport {
    private static let storedNeedleReason =
        "pq makes the pattern PostgreSQL matches with from the needle before the query runs, so the needle must be a literal or a parameter, not a value read from the store"

    /// The refused form and why, for `lhs op[options] rhs` (options not empty).
    static func foldedComparisonProblem(
        _ op: ComparisonOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ options: StringOptions
    ) -> (String, String)? {
        // Ordering, and equality of two stored values, compare folded values
        // (`PostgreSQLPattern.foldMap`); equality with a known value matches a pattern.
        let form = "'\(op.rawValue)\(options.modifier)'"
        guard op == .equal || op == .notEqual, let needle = [rhs, lhs].first(where: isKnown) else { return nil }
        return patternProblem(needle, PostgreSQLPattern(kind: .whole, options: options, composed: true), form)
    }

    /// The refused form and why, for a string test.
    static func stringTestProblem(
        _ op: StringOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ options: StringOptions
    ) -> (String, String)? {
        let form = "'\(op.rawValue)\(options.modifier)'"
        if op == .matches, options.contains(.caseInsensitive) {
            return (
                form,
                "pq's matches\(options.modifier) is ICU's own case-insensitive matching, whose case folding PostgreSQL's regular expressions do not have; use matches or matches[d] with both cases in a bracket, as [Vv]ac.*"
            )
        }
        guard op == .like || op == .matches || !options.isEmpty else { return nil }
        guard isKnown(rhs) else { return ("\(form) against a stored value", storedNeedleReason) }
        let kind = PostgreSQLPattern.Kind(op)
        if kind == .regex {
            return patternProblem(rhs, PostgreSQLPattern(kind: .regex, options: [], composed: false), form)
        }
        for composed in [false, true] {
            if let found = patternProblem(rhs, PostgreSQLPattern(kind: kind, options: options, composed: composed), form) {
                return found
            }
        }
        return nil
    }

    /// Whether the value is known before the query runs: a literal or a parameter.
    private static func isKnown(_ expr: TypedExpr) -> Bool {
        switch expr {
        case .constant, .parameter: true
        default: false
        }
    }

    /// The refusal when a literal needle gives no pattern (a parameter's is made when bound).
    private static func patternProblem(
        _ needle: TypedExpr, _ pattern: PostgreSQLPattern, _ form: String
    ) -> (String, String)? {
        guard case .constant(.string(let text), _) = needle else { return nil }
        do throws(PostgreSQLPatternError) {
            _ = try pattern.make(text)
            return nil
        } catch {
            if let construct = error.construct { return ("\(form) with \(construct)", error.message) }
            return (form, error.message)
        }
    }

    /// The literal pattern or needle of the first string test refused as `form`, if it
    /// is one, so the diagnostic points at it.
    static func refusedLiteral(_ form: String, in expr: TypedExpr) -> String? {
        switch expr {
        case .stringTest(let op, let lhs, let rhs, let options):
            if stringTestProblem(op, lhs, rhs, options)?.0 == form, case .constant(.string(let text), _) = rhs {
                return text
            }
        case .compare(let op, let lhs, let rhs, let options) where !options.isEmpty:
            if foldedComparisonProblem(op, lhs, rhs, options)?.0 == form {
                for side in [rhs, lhs] { if case .constant(.string(let text), _) = side { return text } }
            }
        default: break
        }
        for child in expr.children {
            if let found = refusedLiteral(form, in: child) { return found }
        }
        return nil
    }
}
