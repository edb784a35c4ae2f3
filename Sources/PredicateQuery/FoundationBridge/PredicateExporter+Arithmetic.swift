// Arithmetic and `??`, as Foundation nodes: `Arithmetic`, `IntDivision`,
// `IntRemainder`, `FloatDivision`, `UnaryMinus`, `NilCoalesce`.
//
// Swift traps where pq's arithmetic goes on (an Int overflow continues in Double
// in pq, and Int.min / -1 too), and divides by zero to ±∞ or a trap where pq's
// result is nil. So:
// - Int `+`, `-`, `*` and negation are guarded: on overflow the predicate throws
//   (a `nil!` node) instead of trapping, where pq would compute a Double;
// - `/` and `%` need a constant divisor: by 0 the result is nil, as in pq;
// - arithmetic on types narrower than pq's (Int8…Int32, Float) is refused: pq
//   computes in Int64 and Double, Swift in the property's own type.

import Foundation

extension PredicateExporter {
    func arithmetic(_ op: ArithmeticOperator, _ lhs: TypedExpr, _ rhs: TypedExpr, _ scopes: [PredicateTerm]) throws
        -> PredicateTerm
    {
        guard !op.isBitwise else {
            throw PredicateExportError(construct: "'\(op.rawValue)'", reason: "Foundation's predicates have no bitwise operators")
        }
        if lhs.type == .date || rhs.type == .date {
            throw PredicateExportError(
                construct: "date arithmetic on \(describe(isConstant(lhs) ? rhs : lhs))",
                reason: "Foundation's predicates cannot add a duration to a date read from an object; move the duration to the constant side ('date > X - 7d')")
        }
        let (left, right) = try operands(lhs, rhs, scopes)
        guard let number = left.valueType.wideNumber else {
            throw PredicateExportError(
                construct: "'\(op.rawValue)' on \(describe(lhs))",
                reason: "in Swift it computes in '\(left.unwrappedType)', where pq computes in Int (64-bit) or Double; only Int and Double arithmetic converts")
        }
        var divisor: Value?
        if op == .divide || op == .remainder {
            guard isConstant(rhs) else {
                throw PredicateExportError(
                    construct: "'\(op.rawValue)' by \(describe(rhs))",
                    reason: "Swift traps (or gives ±∞) dividing by zero where pq's result is nil; divide by a constant")
            }
            divisor = try constantValue(rhs)
            if divisor?.isNull == true || SQLiteSemantics.number(divisor ?? .null) == 0 {
                return try left.optionalType?.nilLiteral ?? number.nilTerm()
            }
        }
        return try lifted([left, right]) { operands in
            try number.arithmetic(op, operands[0], operands[1], divisor: divisor)
        }
    }

    func negate(_ operand: TypedExpr, _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        let term = try value(operand, scopes)
        guard let number = term.valueType.wideNumber else {
            throw PredicateExportError(
                construct: "'-' on \(describe(operand))",
                reason: "in Swift it computes in '\(term.unwrappedType)', where pq computes in Int (64-bit) or Double")
        }
        return try lifted([term]) { try number.negation($0[0]) }
    }

    func coalesce(_ lhs: TypedExpr, _ rhs: TypedExpr, _ scopes: [PredicateTerm]) throws -> PredicateTerm {
        let (left, right) = try operands(lhs, rhs, scopes)
        guard let optional = left.optionalType else { return left }
        if !right.isOptional { return try optional.coalesce(left, right) }
        // Both can be nil: `left == nil ? right : left`.
        return try optional.conditional(optional.isNil(left), right, left)
    }
}

/// The number types whose arithmetic in Swift is pq's: Int (64-bit) and Double.
protocol PredicateWideNumber: PredicateNumber {
    static func arithmetic(_ op: ArithmeticOperator, _ lhs: PredicateTerm, _ rhs: PredicateTerm, divisor: Value?) throws
        -> PredicateTerm
    static func negation(_ operand: PredicateTerm) throws -> PredicateTerm
}

extension PredicateWideNumber {
    /// A nil of this number type.
    static func nilTerm() throws -> PredicateTerm { Self?.nilLiteral }
}

extension PredicateOptional {
    static func conditional(_ test: PredicateTerm, _ whenTrue: PredicateTerm, _ whenFalse: PredicateTerm) throws
        -> PredicateTerm
    {
        try PredicateNodes.conditional(test, whenTrue, whenFalse, Self.self)
    }
}

extension Double: PredicateWideNumber {
    static func arithmetic(_ op: ArithmeticOperator, _ lhs: PredicateTerm, _ rhs: PredicateTerm, divisor: Value?) throws
        -> PredicateTerm
    {
        let left = try lhs.typed(Double.self)
        let right = try rhs.typed(Double.self)
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) throws -> PredicateTerm
        where L.Output == Double, R.Output == Double {
            switch op {
            case .add: return PredicateTerm(PredicateExpressions.Arithmetic(lhs: lhs, rhs: rhs, op: .add))
            case .subtract: return PredicateTerm(PredicateExpressions.Arithmetic(lhs: lhs, rhs: rhs, op: .subtract))
            case .multiply: return PredicateTerm(PredicateExpressions.Arithmetic(lhs: lhs, rhs: rhs, op: .multiply))
            case .divide: return PredicateTerm(PredicateExpressions.FloatDivision(lhs: lhs, rhs: rhs))
            default:
                throw PredicateExportError(construct: "'\(op.rawValue)' on Doubles", reason: "pq has no such Double operation")
            }
        }
        return try build(left, right)
    }

    static func negation(_ operand: PredicateTerm) throws -> PredicateTerm {
        func build<O: StandardPredicateExpression>(_ operand: O) -> PredicateTerm where O.Output == Double {
            PredicateTerm(PredicateExpressions.UnaryMinus(operand))
        }
        return build(try operand.typed(Double.self))
    }
}

extension Int: PredicateWideNumber {
    static func arithmetic(_ op: ArithmeticOperator, _ lhs: PredicateTerm, _ rhs: PredicateTerm, divisor: Value?) throws
        -> PredicateTerm
    {
        let constant = { (value: Int) in PredicateNodes.value(value) }
        func test(_ a: PredicateTerm, _ op: PredicateExpressions.ComparisonOperator, _ b: PredicateTerm) throws -> PredicateTerm {
            try PredicateNodes.compare(a, b, Int.self, op)
        }
        let overflow: PredicateTerm
        let result: PredicateTerm
        switch op {
        case .add:
            // rhs > 0 && lhs > max - rhs, or rhs < 0 && lhs < min - rhs
            overflow = try PredicateNodes.or([
                PredicateNodes.and([
                    test(rhs, .greaterThan, constant(0)),
                    test(lhs, .greaterThan, try arithmeticNode(constant(.max), rhs, .subtract)),
                ]),
                PredicateNodes.and([
                    test(rhs, .lessThan, constant(0)),
                    test(lhs, .lessThan, try arithmeticNode(constant(.min), rhs, .subtract)),
                ]),
            ])
            result = try arithmeticNode(lhs, rhs, .add)
        case .subtract:
            // rhs < 0 && lhs > max + rhs, or rhs > 0 && lhs < min + rhs
            overflow = try PredicateNodes.or([
                PredicateNodes.and([
                    test(rhs, .lessThan, constant(0)),
                    test(lhs, .greaterThan, try arithmeticNode(constant(.max), rhs, .add)),
                ]),
                PredicateNodes.and([
                    test(rhs, .greaterThan, constant(0)),
                    test(lhs, .lessThan, try arithmeticNode(constant(.min), rhs, .add)),
                ]),
            ])
            result = try arithmeticNode(lhs, rhs, .subtract)
        case .multiply:
            // Guarded only against a constant factor (the bounds divide by it).
            guard let factor = Self.constantInt(rhs) ?? Self.constantInt(lhs) else {
                throw PredicateExportError(
                    construct: "'*' of two values read from objects",
                    reason: "Swift traps on an Int overflow where pq goes on in Double, and pq can guard against that only for a constant factor")
            }
            let other = Self.constantInt(rhs) != nil ? lhs : rhs
            switch factor {
            case 0, 1: overflow = PredicateNodes.value(false)
            case -1: overflow = try PredicateNodes.equal(other, constant(.min), Int.self, negated: false)
            case let positive where positive > 0:
                overflow = try PredicateNodes.or([
                    test(other, .greaterThan, constant(Int.max / positive)),
                    test(other, .lessThan, constant(Int.min / positive)),
                ])
            default:
                overflow = try PredicateNodes.or([
                    test(other, .lessThan, constant(Int.max / factor)),
                    test(other, .greaterThan, constant(Int.min / factor)),
                ])
            }
            result = try arithmeticNode(lhs, rhs, .multiply)
        case .divide, .remainder:
            guard case .int(let value)? = divisor else {
                throw PredicateExportError(construct: "'\(op.rawValue)' on Ints", reason: "the divisor must be an Int constant")
            }
            if value == -1 {
                // Int.min / -1 overflows (pq: a Double); x % -1 is 0.
                if op == .remainder { return constant(0) }
                overflow = try PredicateNodes.equal(lhs, constant(.min), Int.self, negated: false)
            } else {
                overflow = PredicateNodes.value(false)
            }
            result = try divisionNode(lhs, rhs, remainder: op == .remainder)
        default:
            throw PredicateExportError(construct: "'\(op.rawValue)'", reason: "Foundation's predicates have no such operator")
        }
        return try guarded(result, against: overflow)
    }

    static func negation(_ operand: PredicateTerm) throws -> PredicateTerm {
        func build<O: StandardPredicateExpression>(_ operand: O) -> PredicateTerm where O.Output == Int {
            PredicateTerm(PredicateExpressions.UnaryMinus(operand))
        }
        let overflow = try PredicateNodes.equal(operand, PredicateNodes.value(Int.min), Int.self, negated: false)
        return try guarded(build(try operand.typed(Int.self)), against: overflow)
    }

    /// `overflow ? nil! : result`: the predicate throws where Swift would trap.
    private static func guarded(_ result: PredicateTerm, against overflow: PredicateTerm) throws -> PredicateTerm {
        if let constant = overflow.node as? PredicateExpressions.Value<Bool>, !constant.value { return result }
        return try PredicateNodes.conditional(overflow, PredicateNodes.failure(Int.self), result, Int.self)
    }

    private static func arithmeticNode(_ lhs: PredicateTerm, _ rhs: PredicateTerm, _ op: PredicateExpressions.ArithmeticOperator)
        throws -> PredicateTerm
    {
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> PredicateTerm
        where L.Output == Int, R.Output == Int {
            PredicateTerm(PredicateExpressions.Arithmetic(lhs: lhs, rhs: rhs, op: op))
        }
        return build(try lhs.typed(Int.self), try rhs.typed(Int.self))
    }

    private static func divisionNode(_ lhs: PredicateTerm, _ rhs: PredicateTerm, remainder: Bool) throws -> PredicateTerm {
        func build<L: StandardPredicateExpression, R: StandardPredicateExpression>(_ lhs: L, _ rhs: R) -> PredicateTerm
        where L.Output == Int, R.Output == Int {
            remainder
                ? PredicateTerm(PredicateExpressions.IntRemainder(lhs: lhs, rhs: rhs))
                : PredicateTerm(PredicateExpressions.IntDivision(lhs: lhs, rhs: rhs))
        }
        return build(try lhs.typed(Int.self), try rhs.typed(Int.self))
    }

    private static func constantInt(_ term: PredicateTerm) -> Int? {
        (term.node as? PredicateExpressions.Value<Int>)?.value
    }
}
