// The dispatch over expression kinds, Boolean connectives, and the rules that
// decide which operand of a binary operator is checked first.

extension TypeChecker {
    /// Checks an expression. `expected` is the type the context would like: a hint
    /// that literals, enum cases and parameters take; other expressions ignore it.
    mutating func check(_ expr: Expr, expecting expected: ValueType?) -> TypedExpr? {
        if let deadline {
            guard !passedDeadline else { return nil }
            expressionsChecked += 1
            if expressionsChecked % 1024 == 0, ContinuousClock.now >= deadline {
                passedDeadline = true
                return nil
            }
        }
        let span = expr.span
        switch expr.kind {
        case .literal(let literal):
            return checkLiteral(literal, expecting: expected, at: span)
        case .enumCase(let name):
            return checkEnumCase(name, expecting: expected, at: span)
        case .keyPath(let path):
            return checkValuePath(path, at: span)
        case .parameter(let name):
            return checkParameter(name, expecting: expected, at: span)
        case .call(let function, let arguments):
            return checkCall(function, arguments, at: span)
        case .list, .range:
            return error(
                .invalidMembership, "a \(Self.isList(expr) ? "list" : "range") can only be used on the right of 'in'",
                at: span, notes: [DiagnosticNote("as in 'x in [1, 2, 3]' or 'x in 1...10'")])
        case .member(let base, let component):
            if case .parameter(let name) = base.kind, name.first?.isNumber == true {
                let message =
                    name == "0"
                    ? "anonymous closure argument not contained in a closure"
                    : "'$\(name)' is not a closure argument; a closure here has one, '$0'"
                return error(.closureArgumentOutsideClosure, message, at: base.span)
            }
            return error(
                .invalidMemberAccess, "cannot access member '\(component.name)' here; members belong to key paths",
                at: component.span)
        case .not(let operand):
            return checkPredicate(operand).map(TypedExpr.not)
        case .negate(let operand):
            return checkNegation(operand, expecting: expected, at: span)
        case .and(let operands):
            return checkConnective(operands, isConjunction: true)
        case .or(let operands):
            return checkConnective(operands, isConjunction: false)
        case .arithmetic(let op, let lhs, let rhs):
            return checkArithmetic(op, lhs, rhs, expecting: expected, at: span)
        case .comparison(let op, let lhs, let rhs, let options):
            return checkComparison(op, lhs, rhs, options: options, at: span)
        case .stringTest(let op, let lhs, let rhs, let options):
            return checkStringTest(op, lhs, rhs, options: options, at: span)
        case .membership(let element, let collection, let options):
            return checkMembership(element, in: collection, options: options, at: span)
        case .quantified(let quantifier, let body):
            return checkQuantified(quantifier, body, at: span)
        case .elementTest(let quantifier, let collection, let closure):
            return checkElementTest(quantifier, collection, closure, at: span)
        case .filter:
            return error(
                .filterNotACondition, "a filtered collection is not a condition", at: span,
                notes: [DiagnosticNote("count it or test it, as in 'xs.filter { … }.count > 0' or '.isEmpty'")])
        case .aggregate(let function, let collection, let field):
            return checkAggregate(function, collection, field, at: span)
        case .isEmpty(let operand):
            return checkIsEmpty(operand, at: span)
        case .coalesce(let lhs, let rhs):
            return checkCoalesce(lhs, rhs, expecting: expected, at: span)
        case .invalid:
            return nil
        }
    }

    private static func isList(_ expr: Expr) -> Bool {
        if case .list = expr.kind { return true }
        return false
    }

    /// `&&` or `||`: every operand is checked (so every error is reported), and
    /// nested connectives of the same kind are flattened.
    private mutating func checkConnective(_ operands: [Expr], isConjunction: Bool) -> TypedExpr? {
        var checked: [TypedExpr] = []
        checked.reserveCapacity(operands.count)
        var failed = false
        for operand in operands {
            guard let typed = checkPredicate(operand) else {
                failed = true
                continue
            }
            switch (typed, isConjunction) {
            case (.and(let inner), true), (.or(let inner), false): checked += inner
            default: checked.append(typed)
            }
        }
        guard !failed else { return nil }
        return isConjunction ? .and(checked) : .or(checked)
    }

    // MARK: - Operand order

    /// How much an operand depends on its context for its type: 0 for key paths and
    /// the like, 1 for literals (which adapt), 2 for nil, enum cases and parameters
    /// (which cannot be typed alone).
    static func contextDependence(of expr: Expr) -> Int {
        switch expr.kind {
        case .parameter, .enumCase, .literal(.null): return 2
        case .literal: return 1
        case .negate(let operand): return contextDependence(of: operand)
        case .arithmetic(_, let lhs, let rhs):
            return max(contextDependence(of: lhs), contextDependence(of: rhs))
        case .coalesce(let lhs, let rhs):
            // `a ?? b` has the type of whichever side can be typed alone (usually the
            // key path on the left), so `genre ?? .kids == 2` reads 2 as a Genre.
            return min(contextDependence(of: lhs), contextDependence(of: rhs))
        default: return 0
        }
    }

    /// Checks two operands that must agree in type: the one that needs its context
    /// less goes first and gives the other its expected type.
    mutating func checkOperands(_ lhs: Expr, _ rhs: Expr, hint: ValueType? = nil) -> (TypedExpr, TypedExpr)? {
        let lhsFirst = Self.contextDependence(of: lhs) <= Self.contextDependence(of: rhs)
        let (first, second) = lhsFirst ? (lhs, rhs) : (rhs, lhs)
        let typedFirst = check(first, expecting: hint)
        let typedSecond: TypedExpr?
        if let typedFirst {
            typedSecond = check(second, expecting: Self.expectation(from: typedFirst.type))
        } else if Self.contextDependence(of: second) < 2 {
            typedSecond = check(second, expecting: nil)
        } else {
            typedSecond = nil
        }
        guard let typedFirst, let typedSecond else { return nil }
        return lhsFirst ? (typedFirst, typedSecond) : (typedSecond, typedFirst)
    }

    /// The type worth passing on as an expectation (not nil or an object's type).
    static func expectation(from type: ValueType) -> ValueType? {
        switch type {
        case .null, .opaque: nil
        default: type
        }
    }

    /// Two operands of a comparison (`==`, `<`, `in`, a range): the same type, or an
    /// Int and a Double, which compare exactly (as SQLite and NSNumber compare them:
    /// 9007199254740993 is not 9007199254740992.0), so neither is converted; nil if
    /// they cannot be compared.
    static func comparable(_ lhs: TypedExpr, _ rhs: TypedExpr) -> (TypedExpr, TypedExpr)? {
        switch (lhs.type, rhs.type) {
        case (.int, .double), (.double, .int): return (lhs, rhs)
        default: return unify(lhs, rhs)
        }
    }

    /// Makes two operands the same type, promoting Int to Double; nil if they cannot be.
    static func unify(_ lhs: TypedExpr, _ rhs: TypedExpr) -> (TypedExpr, TypedExpr)? {
        switch (lhs.type, rhs.type) {
        case let (left, right) where left == right: return (lhs, rhs)
        case (.int, .double): return (promoted(lhs), rhs)
        case (.double, .int): return (lhs, promoted(rhs))
        case (.url, .string), (.string, .url): return (lhs, rhs)
        default: return nil
        }
    }

    /// An Int expression as a Double: literals convert, others are wrapped.
    static func promoted(_ expr: TypedExpr) -> TypedExpr {
        if case .constant(.int(let value), .int) = expr { return .constant(.double(Double(value)), .double) }
        return .toDouble(expr)
    }
}
