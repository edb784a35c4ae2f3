// Rewriting a checked query's leaves: the binding step puts the values of a
// query's parameters in their place (still bound, never pasted into SQL) when the
// SQL's shape depends on them, and tests turn literals into parameters to hold
// that a parameter gets the plan its literal would.

extension TypedExpr {
    /// The expression with each leaf (constant, parameter, date, attribute, object)
    /// replaced by `transform`'s result.
    public func rewritingLeaves(_ transform: (TypedExpr) -> TypedExpr) -> TypedExpr {
        func rewrite(_ expr: TypedExpr) -> TypedExpr {
            switch expr {
            case .constant, .parameter, .currentDate, .attribute, .object: return transform(expr)
            case .isNil(let operand): return .isNil(rewrite(operand))
            case .not(let operand): return .not(rewrite(operand))
            case .and(let operands): return .and(operands.map(rewrite))
            case .or(let operands): return .or(operands.map(rewrite))
            case .compare(let op, let lhs, let rhs, let options): return .compare(op, rewrite(lhs), rewrite(rhs), options)
            case .stringTest(let op, let lhs, let rhs, let options):
                return .stringTest(op, rewrite(lhs), rewrite(rhs), options)
            case .inList(let element, let members): return .inList(rewrite(element), members.map(rewrite))
            case .inParameterList(let element, let name, let type, let options):
                return .inParameterList(rewrite(element), name, type, options)
            case .inRange(let element, let lower, let upper, let kind):
                return .inRange(rewrite(element), rewrite(lower), rewrite(upper), kind)
            case .arithmetic(let op, let lhs, let rhs, let type): return .arithmetic(op, rewrite(lhs), rewrite(rhs), type)
            case .negate(let operand, let type): return .negate(rewrite(operand), type)
            case .coalesce(let lhs, let rhs, let type): return .coalesce(rewrite(lhs), rewrite(rhs), type)
            case .toDouble(let operand): return .toDouble(rewrite(operand))
            case .quantified(let quantifier, let path, let body): return .quantified(quantifier, path, rewrite(body))
            case .aggregate(let function, let path, let filter, let value, let type):
                return .aggregate(function, path, filter: filter.map(rewrite), value: value.map(rewrite), type)
            }
        }
        return rewrite(self)
    }
}
