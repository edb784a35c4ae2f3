// A value inside a typed predicate, with the Swift type it has: an attribute, an
// aggregate, a parameter, arithmetic on them. Comparing two gives a condition.
//
// Operators exist only where Swift's own would type-check, so an ill-typed
// predicate does not compile: `$0.limit > "x"` (Double against String),
// `$0.name > 5`, `$0.transactions > 3` (a to-many is not a value; use `.count`),
// `$0.genre == 1` (an enum is compared with its cases), `$0.name.contains(5)`.

/// A typed value in a predicate.
public struct QueryExpression<Value>: Sendable {
    /// The syntax tree of the value, with the values it binds.
    public let fragment: QueryFragment

    /// A value made from a fragment of syntax tree whose type is `Value`.
    public init(_ fragment: QueryFragment) {
        self.fragment = fragment
    }

    /// `$name`: a parameter, bound when the query runs.
    public static func parameter(_ name: String) -> QueryExpression {
        QueryExpression(QueryFragment(Expr(.parameter(name))))
    }
}

extension QueryExpression {
    fileprivate static func compare(_ op: ComparisonOperator, _ lhs: QueryFragment, _ rhs: QueryFragment, _ options: StringOptions = [])
        -> QueryCondition
    {
        QueryCondition(.combining([lhs, rhs]) { parts in .comparison(op, parts[0], parts[1], options) })
    }

    fileprivate static func arithmetic(_ op: ArithmeticOperator, _ lhs: QueryFragment, _ rhs: QueryFragment) -> QueryExpression {
        QueryExpression(.combining([lhs, rhs]) { parts in .arithmetic(op, parts[0], parts[1]) })
    }
}

// MARK: - Equality: every value type, optionals included (`$0.note == nil`).

extension QueryExpression where Value: QueryValue & Equatable {
    /// A condition that holds where the value equals `rhs`: `$0.name == "Rent"`.
    public static func == (lhs: QueryExpression, rhs: Value) -> QueryCondition { compare(.equal, lhs.fragment, rhs.queryFragment) }
    /// A condition that holds where the value differs from `rhs`: `$0.name != "Rent"`.
    public static func != (lhs: QueryExpression, rhs: Value) -> QueryCondition { compare(.notEqual, lhs.fragment, rhs.queryFragment) }
    /// A condition that holds where `lhs` equals the value: `"Rent" == $0.name`.
    public static func == (lhs: Value, rhs: QueryExpression) -> QueryCondition { compare(.equal, lhs.queryFragment, rhs.fragment) }
    /// A condition that holds where `lhs` differs from the value: `"Rent" != $0.name`.
    public static func != (lhs: Value, rhs: QueryExpression) -> QueryCondition { compare(.notEqual, lhs.queryFragment, rhs.fragment) }
    /// A condition that holds where the two values are equal: `$0.amount == $0.budget?.limit`.
    public static func == (lhs: QueryExpression, rhs: QueryExpression) -> QueryCondition { compare(.equal, lhs.fragment, rhs.fragment) }
    /// A condition that holds where the two values differ: `$0.amount != $0.budget?.limit`.
    public static func != (lhs: QueryExpression, rhs: QueryExpression) -> QueryCondition {
        compare(.notEqual, lhs.fragment, rhs.fragment)
    }

    /// Membership: `$0.name.in(["Rent", "Travel"])`, as `name in ['Rent', 'Travel']`.
    public func `in`(_ values: [Value]) -> QueryCondition {
        let list = QueryFragment.combining(values.map(\.queryFragment)) { .list($0) }
        return QueryCondition(.combining([fragment, list]) { parts in .membership(parts[0], parts[1]) })
    }

    /// Membership in a list parameter: `$0.name.in(parameter: "names")`.
    public func `in`(parameter name: String) -> QueryCondition {
        QueryCondition(.combining([fragment, QueryFragment(Expr(.parameter(name)))]) { parts in .membership(parts[0], parts[1]) })
    }
}

// MARK: - Order

extension QueryExpression where Value: QueryValue & Comparable {
    /// A condition that holds where the value is `<` `rhs`: `$0.limit < 100`.
    public static func < (lhs: QueryExpression, rhs: Value) -> QueryCondition { compare(.less, lhs.fragment, rhs.queryFragment) }
    /// A condition that holds where the value is `<=` `rhs`: `$0.limit <= 100`.
    public static func <= (lhs: QueryExpression, rhs: Value) -> QueryCondition { compare(.lessOrEqual, lhs.fragment, rhs.queryFragment) }
    /// A condition that holds where the value is `>` `rhs`: `$0.limit > 100`.
    public static func > (lhs: QueryExpression, rhs: Value) -> QueryCondition { compare(.greater, lhs.fragment, rhs.queryFragment) }
    /// A condition that holds where the value is `>=` `rhs`: `$0.limit >= 100`.
    public static func >= (lhs: QueryExpression, rhs: Value) -> QueryCondition {
        compare(.greaterOrEqual, lhs.fragment, rhs.queryFragment)
    }
    /// A condition that holds where `lhs` is `<` the value: `100 < $0.limit`.
    public static func < (lhs: Value, rhs: QueryExpression) -> QueryCondition { compare(.less, lhs.queryFragment, rhs.fragment) }
    /// A condition that holds where `lhs` is `<=` the value: `100 <= $0.limit`.
    public static func <= (lhs: Value, rhs: QueryExpression) -> QueryCondition { compare(.lessOrEqual, lhs.queryFragment, rhs.fragment) }
    /// A condition that holds where `lhs` is `>` the value: `100 > $0.limit`.
    public static func > (lhs: Value, rhs: QueryExpression) -> QueryCondition { compare(.greater, lhs.queryFragment, rhs.fragment) }
    /// A condition that holds where `lhs` is `>=` the value: `100 >= $0.limit`.
    public static func >= (lhs: Value, rhs: QueryExpression) -> QueryCondition {
        compare(.greaterOrEqual, lhs.queryFragment, rhs.fragment)
    }
    /// A condition that compares two values of the object with `<`: `$0.amount < $0.budget?.limit`.
    public static func < (lhs: QueryExpression, rhs: QueryExpression) -> QueryCondition { compare(.less, lhs.fragment, rhs.fragment) }
    /// A condition that compares two values of the object with `<=`: `$0.amount <= $0.budget?.limit`.
    public static func <= (lhs: QueryExpression, rhs: QueryExpression) -> QueryCondition {
        compare(.lessOrEqual, lhs.fragment, rhs.fragment)
    }
    /// A condition that compares two values of the object with `>`: `$0.amount > $0.budget?.limit`.
    public static func > (lhs: QueryExpression, rhs: QueryExpression) -> QueryCondition { compare(.greater, lhs.fragment, rhs.fragment) }
    /// A condition that compares two values of the object with `>=`: `$0.amount >= $0.budget?.limit`.
    public static func >= (lhs: QueryExpression, rhs: QueryExpression) -> QueryCondition {
        compare(.greaterOrEqual, lhs.fragment, rhs.fragment)
    }

    /// `x between lower and upper`, as `(lower...upper).contains($0.x)`.
    public func between(_ lower: Value, _ upper: Value) -> QueryCondition {
        (lower...upper).contains(self)
    }
}

extension ClosedRange where Bound: QueryValue {
    /// `$0.x in lower...upper`.
    public func contains(_ element: QueryExpression<Bound>) -> QueryCondition {
        let range = QueryFragment.combining([lowerBound.queryFragment, upperBound.queryFragment]) { .range($0[0], $0[1], .closed) }
        return QueryCondition(.combining([element.fragment, range]) { parts in .membership(parts[0], parts[1]) })
    }
}

extension Range where Bound: QueryValue {
    /// `$0.x in lower..<upper`.
    public func contains(_ element: QueryExpression<Bound>) -> QueryCondition {
        let range = QueryFragment.combining([lowerBound.queryFragment, upperBound.queryFragment]) { .range($0[0], $0[1], .halfOpen) }
        return QueryCondition(.combining([element.fragment, range]) { parts in .membership(parts[0], parts[1]) })
    }
}

extension Array where Element: QueryValue & Equatable {
    /// `[a, b].contains($0.x)`, as `x in [a, b]`.
    public func contains(_ element: QueryExpression<Element>) -> QueryCondition {
        element.in(self)
    }
}

// MARK: - Arithmetic

extension QueryExpression where Value: QueryValue & Numeric {
    /// The sum of the value and `rhs`: `$0.limit + 10`.
    public static func + (lhs: QueryExpression, rhs: Value) -> QueryExpression { arithmetic(.add, lhs.fragment, rhs.queryFragment) }
    /// The difference of the value and `rhs`: `$0.limit - 10`.
    public static func - (lhs: QueryExpression, rhs: Value) -> QueryExpression { arithmetic(.subtract, lhs.fragment, rhs.queryFragment) }
    /// The product of the value and `rhs`: `$0.limit * 10`.
    public static func * (lhs: QueryExpression, rhs: Value) -> QueryExpression { arithmetic(.multiply, lhs.fragment, rhs.queryFragment) }
    /// The sum of `lhs` and the value: `10 + $0.limit`.
    public static func + (lhs: Value, rhs: QueryExpression) -> QueryExpression { arithmetic(.add, lhs.queryFragment, rhs.fragment) }
    /// The difference of `lhs` and the value: `10 - $0.limit`.
    public static func - (lhs: Value, rhs: QueryExpression) -> QueryExpression { arithmetic(.subtract, lhs.queryFragment, rhs.fragment) }
    /// The product of `lhs` and the value: `10 * $0.limit`.
    public static func * (lhs: Value, rhs: QueryExpression) -> QueryExpression { arithmetic(.multiply, lhs.queryFragment, rhs.fragment) }
    /// The sum of two values of the object: `$0.limit + $0.spent`.
    public static func + (lhs: QueryExpression, rhs: QueryExpression) -> QueryExpression { arithmetic(.add, lhs.fragment, rhs.fragment) }
    /// The difference of two values of the object: `$0.limit - $0.spent`.
    public static func - (lhs: QueryExpression, rhs: QueryExpression) -> QueryExpression {
        arithmetic(.subtract, lhs.fragment, rhs.fragment)
    }
    /// The product of two values of the object: `$0.limit * $0.spent`.
    public static func * (lhs: QueryExpression, rhs: QueryExpression) -> QueryExpression {
        arithmetic(.multiply, lhs.fragment, rhs.fragment)
    }
}

extension QueryExpression where Value: QueryValue & SignedNumeric {
    /// The value negated: `-$0.amount`.
    public static prefix func - (operand: QueryExpression) -> QueryExpression {
        QueryExpression(.combining([operand.fragment]) { parts in .negate(parts[0]) })
    }
}

extension QueryExpression where Value: QueryValue & FloatingPoint {
    /// The quotient of the value and `rhs`: `$0.limit / 10`.
    public static func / (lhs: QueryExpression, rhs: Value) -> QueryExpression { arithmetic(.divide, lhs.fragment, rhs.queryFragment) }
    /// The quotient of two values of the object: `$0.limit / $0.spent`.
    public static func / (lhs: QueryExpression, rhs: QueryExpression) -> QueryExpression {
        arithmetic(.divide, lhs.fragment, rhs.fragment)
    }
}

extension QueryExpression where Value: QueryValue & BinaryInteger {
    /// The quotient of the value and `rhs`: `$0.limit / 10`.
    public static func / (lhs: QueryExpression, rhs: Value) -> QueryExpression { arithmetic(.divide, lhs.fragment, rhs.queryFragment) }
    /// The remainder of the value and `rhs`: `$0.limit % 10`.
    public static func % (lhs: QueryExpression, rhs: Value) -> QueryExpression { arithmetic(.remainder, lhs.fragment, rhs.queryFragment) }
}

// MARK: - Strings

extension QueryExpression where Value == String {
    private func test(_ op: StringOperator, _ other: QueryFragment, _ options: StringOptions) -> QueryCondition {
        QueryCondition(.combining([fragment, other]) { parts in .stringTest(op, parts[0], parts[1], options) })
    }

    /// `name contains 'x'`; `options: .caseInsensitive` is `contains[c]`.
    public func contains(_ other: String, options: StringOptions = []) -> QueryCondition {
        test(.contains, other.queryFragment, options)
    }

    /// `name contains $parameter` or another attribute.
    public func contains(_ other: QueryExpression<String>, options: StringOptions = []) -> QueryCondition {
        test(.contains, other.fragment, options)
    }

    /// Case- and diacritic-insensitive `contains`, as Foundation's
    /// `localizedStandardContains` (pq folds without a locale).
    public func localizedStandardContains(_ other: String) -> QueryCondition {
        test(.contains, other.queryFragment, [.caseInsensitive, .diacriticInsensitive])
    }

    /// `name beginswith 'x'`.
    public func hasPrefix(_ prefix: String, options: StringOptions = []) -> QueryCondition {
        test(.beginsWith, prefix.queryFragment, options)
    }

    /// `name beginswith 'x'`, spelled as Swift's `starts(with:)`.
    public func starts(with prefix: String) -> QueryCondition {
        test(.beginsWith, prefix.queryFragment, [])
    }

    /// `name endswith 'x'`.
    public func hasSuffix(_ suffix: String, options: StringOptions = []) -> QueryCondition {
        test(.endsWith, suffix.queryFragment, options)
    }

    /// `name like 'V*n?'`: `*` any run of characters, `?` one; `\` escapes.
    public func like(_ pattern: String, options: StringOptions = []) -> QueryCondition {
        test(.like, pattern.queryFragment, options)
    }

    /// `name matches 'regex'`: the whole string matches the ICU regular expression.
    public func matches(_ pattern: String, options: StringOptions = []) -> QueryCondition {
        test(.matches, pattern.queryFragment, options)
    }

    /// `name ==[c] 'x'`: equality with string options.
    public func equals(_ other: String, options: StringOptions) -> QueryCondition {
        QueryExpression.compare(.equal, fragment, other.queryFragment, options)
    }
}

extension QueryExpression where Value == String? {
    /// The tests of a non-optional string, on an optional one: false when it is nil.
    public var unwrapped: QueryExpression<String> { QueryExpression<String>(fragment) }
}
