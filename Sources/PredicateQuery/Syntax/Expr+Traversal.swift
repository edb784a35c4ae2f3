// Walking syntax trees without recursion.
//
// Trees built in code (the typed builder, the Foundation bridge) did not pass
// through the parser's limits, so the checker first measures them with an
// explicit stack over each node's children (see Checking/LimitCheck.swift)
// before anything recurses over them.

extension Expr {
    /// The direct subexpressions, in source order (closure bodies included).
    public var children: [Expr] {
        var children: [Expr] = []
        forEachChild { children.append($0) }
        return children
    }

    /// `body` on each direct subexpression, in source order (closure bodies included),
    /// without making an array: the limit walk runs for every query checked.
    func forEachChild(_ body: (Expr) -> Void) {
        switch kind {
        case .literal, .enumCase, .keyPath, .parameter, .invalid:
            return
        case .call(_, let arguments): arguments.forEach(body)
        case .list(let elements), .and(let elements), .or(let elements): elements.forEach(body)
        case .range(let lower, let upper, _):
            body(lower)
            body(upper)
        case .member(let base, _): body(base)
        case .not(let operand), .negate(let operand), .quantified(_, let operand), .isEmpty(let operand):
            body(operand)
        case .arithmetic(_, let lhs, let rhs), .comparison(_, let lhs, let rhs, _), .coalesce(let lhs, let rhs),
            .stringTest(_, let lhs, let rhs, _), .membership(let lhs, let rhs, _):
            body(lhs)
            body(rhs)
        case .elementTest(_, let collection, let closure), .filter(let collection, let closure):
            body(collection)
            body(closure.body)
        case .aggregate(_, let collection, _): body(collection)
        }
    }
}
