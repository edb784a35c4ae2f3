// Comparisons, string tests, membership and nil tests, as Foundation nodes:
// `Equal`, `NotEqual`, `Comparison`, `CollectionContainsCollection` (contains),
// `SequenceStartsWith` (beginswith), `SequenceContains` (in), `Equal` with
// `NilLiteral` (== nil).

import Foundation

extension PredicateExporter {
    func compare(
        _ op: ComparisonOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ options: StringOptions, _ scopes: [PredicateTerm]
    ) throws -> PredicateTerm {
        guard options.isEmpty else { throw PredicateExportError.folding("'\(op.rawValue)\(options.spelling)'") }
        if case .toDouble(let integer) = lhs, isConstant(rhs) {
            return try compareInteger(value(integer, scopes), integer, op, with: rhs)
        }
        if case .toDouble(let integer) = rhs, isConstant(lhs) {
            return try compareInteger(value(integer, scopes), integer, op.mirrored, with: lhs)
        }
        // An integer property compared with a Double constant (`pages > 299.5`). The term
        // made to find out is kept for the comparison that follows otherwise.
        var built: (left: PredicateTerm?, right: PredicateTerm?) = (nil, nil)
        if !isConstant(lhs), isConstant(rhs), case .double = try constantValue(rhs) {
            let term = try value(lhs, scopes)
            if term.valueType.integer != nil { return try compareInteger(term, lhs, op, with: rhs) }
            built.left = term
        }
        if isConstant(lhs), !isConstant(rhs), case .double = try constantValue(lhs) {
            let term = try value(rhs, scopes)
            if term.valueType.integer != nil { return try compareInteger(term, rhs, op.mirrored, with: lhs) }
            built.right = term
        }
        // For `==` a constant is made optional at once when the other side is, as
        // `equal` would make it (and not as a plain value first, to be converted).
        let (left, right) = try operands(
            lhs, rhs, scopes, built: built, optionalConstants: op == .equal || op == .notEqual)
        let scalar = try scalarType(of: left, for: lhs)
        switch op {
        case .equal, .notEqual:
            return try equal(left, right, scalar, negated: op == .notEqual)
        default:
            guard let ordered = left.valueType.ordered else {
                throw PredicateExportError(
                    construct: "'\(op.rawValue)' on \(describe(lhs))", reason: "Swift has no order for '\(scalar)'")
            }
            if isNilConstant(left) || isNilConstant(right) { return PredicateNodes.value(false) }
            let compared = try lifted([left, right]) { operands in
                try ordered.compare(operands[0], operands[1], op.foundationOperator)
            }
            return try nilIsFalse(compared)
        }
    }

    /// `==` or `!=` as Swift compares optionals (nil equals nil), which is pq's rule.
    func equal(_ left: PredicateTerm, _ right: PredicateTerm, _ scalar: any PredicateScalar.Type, negated: Bool) throws
        -> PredicateTerm
    {
        if left.isOptional == right.isOptional { return try scalar.equal(left, right, negated: negated) }
        // One side is optional: the other becomes an optional of its type (a constant
        // an optional constant, as Swift's `x?.name == "a"` has it).
        func optional(_ term: PredicateTerm) throws -> PredicateTerm {
            if term.isOptional { return term }
            return try scalar.optionalConstant(of: term) ?? scalar.wrappedTerm(term)
        }
        return try scalar.equal(optional(left), optional(right), negated: negated)
    }

    func isNilConstant(_ term: PredicateTerm) -> Bool {
        term.isNilLiteral
    }

    /// An Int compared with a Double constant: the same test on whole numbers
    /// (`age > 2.5` is `age > 2`), since Foundation's predicates cannot convert.
    private func compareInteger(_ term: PredicateTerm, _ integer: TypedExpr, _ op: ComparisonOperator, with constantExpr: TypedExpr)
        throws -> PredicateTerm
    {
        guard let integerType = term.valueType.integer else {
            throw PredicateExportError(
                construct: describe(integer), reason: "pq expected an integer there; this is a bug in pq's conversion")
        }
        let constant = try constantValue(constantExpr)
        guard let number = SQLiteSemantics.number(constant) else {
            // Compared with nil: `==` is a nil test, the others false.
            switch op {
            case .equal: return try isNil(term)
            case .notEqual: return try PredicateNodes.not(isNil(term))
            default: return PredicateNodes.value(false)
            }
        }
        let bound: Double
        let whole = number.rounded(.down) == number
        switch op {
        case .greater, .lessOrEqual: bound = number.rounded(.down)
        case .greaterOrEqual, .less: bound = number.rounded(.up)
        case .equal, .notEqual:
            bound = number
            if !whole { return op == .notEqual ? PredicateNodes.value(true) : PredicateNodes.value(false) }
        }
        guard let exact = integerType.constantTerm(exactly: bound) else {
            // The bound is beyond the type's range: every value (that is not nil) is on one side.
            let everyValueIsBelow = bound > 0
            let holds: Bool
            switch op {
            case .less, .lessOrEqual: holds = everyValueIsBelow
            case .greater, .greaterOrEqual: holds = !everyValueIsBelow
            case .equal: holds = false
            case .notEqual: return PredicateNodes.value(true)
            }
            return holds ? try PredicateNodes.not(isNil(term)) : PredicateNodes.value(false)
        }
        let right = term.isOptional ? try integerType.wrappedTerm(exact) : exact
        switch op {
        case .equal, .notEqual: return try equal(term, right, integerType, negated: op == .notEqual)
        default:
            let compared = try lifted([term, exact]) { try integerType.compare($0[0], $0[1], op.foundationOperator) }
            return try nilIsFalse(compared)
        }
    }

    // MARK: - String tests

    func stringTest(
        _ op: StringOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ options: StringOptions, _ scopes: [PredicateTerm]
    ) throws -> PredicateTerm {
        guard options.isEmpty else { throw PredicateExportError.folding("'\(op.rawValue)\(options.spelling)'") }
        let build: (PredicateTerm, PredicateTerm) throws -> PredicateTerm
        switch op.definition.foundationNode {
        case .contains: build = PredicateNodes.stringContains
        case .starts: build = { try PredicateNodes.stringStarts($0, with: $1) }
        case nil:
            throw PredicateExportError(
                construct: "'\(op.rawValue)'", reason: "Foundation's predicates have no node for it (#Predicate has no hasSuffix, wildcard or regular-expression test)")
        }
        let (left, right) = try operands(lhs, rhs, scopes)
        guard left.unwrappedType == String.self else {
            throw PredicateExportError(
                construct: "'\(op.rawValue)' on \(describe(lhs))", reason: "in Swift it is a '\(left.unwrappedType)', not a String")
        }
        if isNilConstant(left) || isNilConstant(right) { return PredicateNodes.value(false) }
        return try nilIsFalse(lifted([left, right]) { try build($0[0], $0[1]) })
    }

    // MARK: - Membership and nil

    func inList(_ element: TypedExpr, _ members: [TypedExpr], _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        if members.allSatisfy(isConstant) {
            return try listContains(element, members.map { try constantValue($0) }, scopes)
        }
        // Members read from objects: one equality each, on the element when it is not nil.
        let subject = try value(element, scopes)
        let tests = try members.map { member -> PredicateTerm in
            let memberTerm = isConstant(member) ? try constant(member, like: subject) : try value(member, scopes)
            guard memberTerm.unwrappedType == subject.unwrappedType else {
                throw PredicateExportError(
                    construct: describe(member), reason: "its Swift type differs from that of \(describe(element))")
            }
            return memberTerm
        }
        let scalar = try scalarType(of: subject, for: element)
        let any = try lifted([subject]) { unwrapped in
            try PredicateNodes.or(tests.map { try equal(unwrapped[0], $0, scalar, negated: false) })
        }
        return try nilIsFalse(any)
    }

    func inParameterList(_ element: TypedExpr, _ name: String, _ type: ValueType, _ scopes: [PredicateTerm]) throws
        -> PredicateTerm
    {
        guard case .list(let values)? = parameters[name] else {
            throw PredicateExportError(construct: "'$\(name)'", reason: "it needs a list of \(type) values")
        }
        let checked = try values.map { value in
            do {
                return try BindingResolver.check(value, as: type, name: name)
            } catch {
                throw PredicateExportError(construct: "'$\(name)'", reason: "\(error)")
            }
        }
        return try listContains(element, checked, scopes)
    }

    /// `[values].contains(element)`: false for a nil element.
    private func listContains(_ element: TypedExpr, _ values: [Value], _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        let subject = try value(element, scopes)
        let scalar = try scalarType(of: subject, for: element)
        return try nilIsFalse(lifted([subject]) { try scalar.list(values, contains: $0[0]) })
    }

    func isNil(_ operand: TypedExpr, _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        switch operand {
        case .arithmetic(_, _, _, .double), .negate(_, .double):
            throw PredicateExportError(
                construct: "a nil test of a computed number",
                reason: "Foundation computes NaN where pq's arithmetic is nil (∞ − ∞, for one), so the test would not mean the same")
        default: break
        }
        return try isNil(value(operand, scopes))
    }

    /// `term == nil`; false for a value that is never nil.
    func isNil(_ term: PredicateTerm) throws -> PredicateTerm {
        guard let optional = term.optionalType else { return PredicateNodes.value(false) }
        return try optional.isNil(term)
    }
}

extension PredicateScalar {
    /// A captured value of this type as a captured optional, or nil for any other node.
    static func optionalConstant(of term: PredicateTerm) -> PredicateTerm? {
        (term.node as? PredicateExpressions.Value<Self>).map { PredicateNodes.value(Self?.some($0.value)) }
    }

    /// A value of this type as an optional of it (`value as? Self`).
    static func wrappedTerm(_ term: PredicateTerm) throws -> PredicateTerm {
        try PredicateNodes.wrapped(term, Self.self)
    }
}

extension PredicateInteger {
    /// The whole number `value` as a constant of this type, if it has one.
    static func constantTerm(exactly value: Double) -> PredicateTerm? {
        Self(exactly: value).map { PredicateNodes.value($0) }
    }
}

extension PredicateExportError {
    /// A `[c]`/`[d]` construct: Foundation has no test that folds as pq does.
    static func folding(_ construct: String) -> PredicateExportError {
        PredicateExportError(
            construct: construct,
            reason: "Foundation's case- and diacritic-insensitive comparisons fold differently from pq's [c] and [d] (ß and ss, for one), so they would not mean the same")
    }
}

/// `NilLiteral`, recognised whatever it wraps.
protocol PredicateNilLiteral {}
extension PredicateExpressions.NilLiteral: PredicateNilLiteral {}

extension ComparisonOperator {
    /// The operator with its operands swapped: `a < b` is `b > a`.
    var mirrored: ComparisonOperator {
        switch self {
        case .equal, .notEqual: self
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        }
    }

    var foundationOperator: PredicateExpressions.ComparisonOperator {
        switch self {
        case .less: .lessThan
        case .lessOrEqual: .lessThanOrEqual
        case .greater: .greaterThan
        default: .greaterThanOrEqual
        }
    }
}

extension StringOptions {
    /// `[c]`, `[d]`, `[cd]`.
    var spelling: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
