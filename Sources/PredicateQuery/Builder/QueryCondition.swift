// A condition inside a typed predicate, and how conditions combine.
//
// `a && b && c` builds one `&&` of three operands, as the parser does, so a
// filter assembled in a loop stays flat however many conditions it has.

/// A true-or-false test in a predicate.
public struct QueryCondition: Sendable {
    /// The syntax tree of the condition, with the values it binds.
    public let fragment: QueryFragment

    /// A condition made from a fragment of syntax tree that is a Boolean test.
    public init(_ fragment: QueryFragment) {
        self.fragment = fragment
    }

    /// `TRUEPREDICATE`: every object.
    public static var always: QueryCondition { QueryCondition(QueryFragment(Expr(.literal(.bool(true))))) }
    /// `FALSEPREDICATE`: no object.
    public static var never: QueryCondition { QueryCondition(QueryFragment(Expr(.literal(.bool(false))))) }

    /// A condition that holds where both `lhs` and `rhs` hold: `&&`.
    public static func && (lhs: QueryCondition, rhs: QueryCondition) -> QueryCondition {
        QueryCondition(.combining([lhs.fragment, rhs.fragment]) { parts in
            if case .and(let operands) = parts[0].kind { return .and(operands + [parts[1]]) }
            return .and(parts)
        })
    }

    /// A condition that holds where `lhs`, `rhs` or both hold: `||`.
    public static func || (lhs: QueryCondition, rhs: QueryCondition) -> QueryCondition {
        QueryCondition(.combining([lhs.fragment, rhs.fragment]) { parts in
            if case .or(let operands) = parts[0].kind { return .or(operands + [parts[1]]) }
            return .or(parts)
        })
    }

    /// A condition that holds where `operand` does not: `!`.
    public static prefix func ! (operand: QueryCondition) -> QueryCondition {
        QueryCondition(.combining([operand.fragment]) { parts in .not(parts[0]) })
    }

    /// Every condition holds; `always` for none.
    public static func all(of conditions: [QueryCondition]) -> QueryCondition {
        switch conditions.count {
        case 0: .always
        case 1: conditions[0]
        default: QueryCondition(.combining(conditions.map(\.fragment)) { .and($0) })
        }
    }

    /// Some condition holds; `never` for none.
    public static func any(of conditions: [QueryCondition]) -> QueryCondition {
        switch conditions.count {
        case 0: .never
        case 1: conditions[0]
        default: QueryCondition(.combining(conditions.map(\.fragment)) { .or($0) })
        }
    }
}

extension QueryExpression where Value == Bool {
    /// A Boolean attribute used as a condition: `$0.hasReceipt.isTrue` or `$0.hasReceipt == true`.
    public var isTrue: QueryCondition { QueryCondition(fragment) }
}

// MARK: - Optionals: `$0.budget?.name == "Travel"`, `$0.budget == nil`

extension Optional {
    /// Compares a value reached through an optional to-one (`$0.budget?.name`).
    public static func == <V: QueryValue & Equatable>(lhs: Self, rhs: V) -> QueryCondition where Wrapped == QueryExpression<V> {
        QueryExpression<V>.unwrapping(lhs) == rhs
    }

    /// `$0.budget?.limit != 100`: true where the value is nil or differs from `rhs`.
    public static func != <V: QueryValue & Equatable>(lhs: Self, rhs: V) -> QueryCondition where Wrapped == QueryExpression<V> {
        QueryExpression<V>.unwrapping(lhs) != rhs
    }

    /// `$0.budget?.limit < 100`: false where the value is nil.
    public static func < <V: QueryValue & Comparable>(lhs: Self, rhs: V) -> QueryCondition where Wrapped == QueryExpression<V> {
        QueryExpression<V>.unwrapping(lhs) < rhs
    }

    /// `$0.budget?.limit <= 100`: false where the value is nil.
    public static func <= <V: QueryValue & Comparable>(lhs: Self, rhs: V) -> QueryCondition where Wrapped == QueryExpression<V> {
        QueryExpression<V>.unwrapping(lhs) <= rhs
    }

    /// `$0.budget?.limit > 100`: false where the value is nil.
    public static func > <V: QueryValue & Comparable>(lhs: Self, rhs: V) -> QueryCondition where Wrapped == QueryExpression<V> {
        QueryExpression<V>.unwrapping(lhs) > rhs
    }

    /// `$0.budget?.limit >= 100`: false where the value is nil.
    public static func >= <V: QueryValue & Comparable>(lhs: Self, rhs: V) -> QueryCondition where Wrapped == QueryExpression<V> {
        QueryExpression<V>.unwrapping(lhs) >= rhs
    }

    /// `$0.budget == nil`: the optional to-one is not set.
    public static func == <D: QueryModel>(lhs: Self, rhs: _OptionalNilComparisonType) -> QueryCondition
    where Wrapped == ModelReference<D> {
        QueryCondition(.combining([ModelReference<D>.unwrapping(lhs).fragment]) { parts in
            .comparison(.equal, parts[0], Expr(.literal(.null)), [])
        })
    }

    /// `$0.budget != nil`: the optional to-one is set.
    public static func != <D: QueryModel>(lhs: Self, rhs: _OptionalNilComparisonType) -> QueryCondition
    where Wrapped == ModelReference<D> {
        QueryCondition(.combining([ModelReference<D>.unwrapping(lhs).fragment]) { parts in
            .comparison(.notEqual, parts[0], Expr(.literal(.null)), [])
        })
    }
}

// MARK: - A condition through an optional to-one: `$0.budget?.transactions.isEmpty == true`

extension Optional where Wrapped == QueryCondition {
    /// `$0.budget?.transactions.isEmpty == true`: the condition, which is false where
    /// the path is nil, as Swift's `nil == true` is (pq's `isEmpty`, `contains`,
    /// `allSatisfy` and string tests through a nil to-one are all false). `== false`
    /// would need the path to be there as well, which the condition cannot say: it
    /// is reported, with the spelling to use instead.
    public static func == (lhs: Self, rhs: Bool) -> QueryCondition {
        rhs ? unwrapping(lhs) : comparedWithFalse("==")
    }

    /// `$0.budget?.transactions.isEmpty != true`: the condition's negation, true where
    /// the path is nil, as Swift's `nil != true` is.
    public static func != (lhs: Self, rhs: Bool) -> QueryCondition {
        rhs ? !unwrapping(lhs) : comparedWithFalse("!=")
    }

    private static func unwrapping(_ optional: Self) -> QueryCondition {
        optional ?? QueryCondition(.problem("internal error: a missing optional condition"))
    }

    private static func comparedWithFalse(_ op: String) -> QueryCondition {
        QueryCondition(
            .problem(
                "'\(op) false' on a condition through an optional to-one is not supported; "
                    + "compare with true ('!= true' holds where the path is nil), or test the relationship for nil"))
    }
}

extension QueryExpression {
    /// The builder always produces a value; an optional one only carries the `?.`.
    static func unwrapping(_ optional: QueryExpression?) -> QueryExpression {
        optional ?? QueryExpression(.problem("internal error: a missing optional expression"))
    }
}

extension ModelReference {
    static func unwrapping(_ optional: ModelReference?) -> ModelReference {
        optional ?? ModelReference(root: .object, closureDepth: 0, problems: ["internal error: a missing optional reference"])
    }
}

// MARK: - Nil-coalescing: `($0.budget?.limit ?? 0) > 100`, `$0.language ?? .swift`

extension Optional {
    /// A value reached through an optional to-one, or `rhs` when the path is nil.
    public static func ?? <V: QueryValue>(lhs: Self, rhs: V) -> QueryExpression<V> where Wrapped == QueryExpression<V> {
        QueryExpression<V>.coalescing(QueryExpression<V>.unwrapping(lhs).fragment, rhs.queryFragment)
    }
}

extension QueryExpression {
    /// An optional attribute's value, or `rhs` when it is nil.
    public static func ?? <W: QueryValue>(lhs: QueryExpression, rhs: W) -> QueryExpression<W> where Value == W? {
        QueryExpression<W>.coalescing(lhs.fragment, rhs.queryFragment)
    }

    static func coalescing(_ lhs: QueryFragment, _ rhs: QueryFragment) -> QueryExpression {
        QueryExpression(.combining([lhs, rhs]) { parts in .coalesce(parts[0], parts[1]) })
    }
}
