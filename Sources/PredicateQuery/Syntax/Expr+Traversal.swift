// Walking syntax trees without recursion.
//
// Trees built in code (the typed builder, the Foundation bridge) did not pass
// through the parser's limits, so the checker first measures them with an
// explicit stack over `children` (see Checking/LimitCheck.swift) before anything
// recurses over them.

extension Expr {
    /// The direct subexpressions, in source order (closure bodies included).
    public var children: [Expr] {
        switch kind {
        case .literal, .enumCase, .keyPath, .parameter, .invalid:
            return []
        case .call(_, let arguments): return arguments
        case .list(let elements), .and(let elements), .or(let elements): return elements
        case .range(let lower, let upper, _): return [lower, upper]
        case .member(let base, _): return [base]
        case .not(let operand), .negate(let operand), .quantified(_, let operand), .isEmpty(let operand):
            return [operand]
        case .arithmetic(_, let lhs, let rhs), .comparison(_, let lhs, let rhs, _), .coalesce(let lhs, let rhs),
            .stringTest(_, let lhs, let rhs, _), .membership(let lhs, let rhs, _):
            return [lhs, rhs]
        case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
            return [collection, closure.body]
        case .aggregate(_, let collection, _): return [collection]
        }
    }
}
