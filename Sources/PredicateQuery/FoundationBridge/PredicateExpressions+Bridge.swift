// How each supported `PredicateExpressions` node converts (see PredicateBridge).

import Foundation

// MARK: - Variables, key paths, values

/// The collections a to-many relationship can be, with the key paths of their
/// `count` and `isEmpty` (computed properties print without names, so they are
/// recognised by equality).
protocol BridgeCollection {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: BridgeCollection {
    static var countKeyPath: AnyKeyPath { \Self.count }
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
}

extension Set: BridgeCollection {
    static var countKeyPath: AnyKeyPath { \Self.count }
    static var isEmptyKeyPath: AnyKeyPath { \Self.isEmpty }
}

extension PredicateExpressions.Variable: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        try context.node(for: key)
    }
}

extension PredicateExpressions.KeyPath: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let base = try context.convert(root)
        // `.count` and `.isEmpty` of a to-many relationship are pq's count and isEmpty.
        if let collection = type(of: keyPath).rootType as? any BridgeCollection.Type {
            let isCount = keyPath == collection.countKeyPath
            guard isCount || keyPath == collection.isEmptyKeyPath else {
                throw PredicateBridgeError(message: "of a collection's properties, only count and isEmpty are supported")
            }
            let operand = try context.fragment(of: base)
            return .fragment(.combining([operand]) { isCount ? .aggregate(.count, $0[0], []) : .isEmpty($0[0]) })
        }
        guard case .success(var steps) = KeyPathNames.components(of: keyPath) else {
            throw PredicateBridgeError(message: KeyPathError(description: String(describing: keyPath)).message)
        }
        guard case .path(let root, let components, let afterOptional) = base else {
            throw PredicateBridgeError(message: "key path \(keyPath) applies to a value that is not a model object")
        }
        if afterOptional { steps[0].isOptionalChained = true }
        return .path(root: root, components: components + steps, afterOptional: false)
    }
}

extension PredicateExpressions.Value: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        if let range = value as? any BridgeRange { return try range.bridgedRange() }
        return .value(value)
    }
}

extension PredicateExpressions.NilLiteral: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        .fragment(QueryFragment(Expr(.literal(.null))))
    }
}

// MARK: - Optionals

extension PredicateExpressions.OptionalFlatMap: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        // `$0.budget?.name`: the transform's variable stands for the wrapped path,
        // and the step after it is written `?.`.
        guard case .path(let root, let components, _) = try context.convert(wrapped) else {
            throw PredicateBridgeError(message: "optional chaining is supported on key paths only")
        }
        context.bind(variable.key, to: root, components: components, afterOptional: true)
        return try context.convert(transform)
    }
}

extension PredicateExpressions.ForcedUnwrap: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        // pq's paths are nil-safe: `$0.budget!.name` of a nil budget is nil, not a trap.
        try context.convert(inner)
    }
}

extension PredicateExpressions.NilCoalesce: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment(.combining(parts) { .coalesce($0[0], $0[1]) })
    }
}

// MARK: - Logic

extension PredicateExpressions.Conjunction: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment((QueryCondition(parts[0]) && QueryCondition(parts[1])).fragment)
    }
}

extension PredicateExpressions.Disjunction: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment((QueryCondition(parts[0]) || QueryCondition(parts[1])).fragment)
    }
}

extension PredicateExpressions.Negation: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        .fragment(.combining([try context.fragment(wrapped)]) { .not($0[0]) })
    }
}

// MARK: - Comparisons

extension PredicateExpressions.Equal: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment(.combining(parts) { .comparison(.equal, $0[0], $0[1], []) })
    }
}

extension PredicateExpressions.NotEqual: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment(.combining(parts) { .comparison(.notEqual, $0[0], $0[1], []) })
    }
}

extension PredicateExpressions.Comparison: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        let comparison: ComparisonOperator
        switch op {
        case .lessThan: comparison = .less
        case .lessThanOrEqual: comparison = .lessOrEqual
        case .greaterThan: comparison = .greater
        case .greaterThanOrEqual: comparison = .greaterOrEqual
        @unknown default: throw PredicateBridgeError(message: "comparison operator \(op) is not supported")
        }
        return .fragment(.combining(parts) { .comparison(comparison, $0[0], $0[1], []) })
    }
}

// MARK: - Arithmetic

extension PredicateExpressions.Arithmetic: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        let arithmetic: ArithmeticOperator
        switch op {
        case .add: arithmetic = .add
        case .subtract: arithmetic = .subtract
        case .multiply: arithmetic = .multiply
        @unknown default: throw PredicateBridgeError(message: "arithmetic operator \(op) is not supported")
        }
        return .fragment(.combining(parts) { .arithmetic(arithmetic, $0[0], $0[1]) })
    }
}

extension PredicateExpressions.IntDivision: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment(.combining(parts) { .arithmetic(.divide, $0[0], $0[1]) })
    }
}

extension PredicateExpressions.FloatDivision: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment(.combining(parts) { .arithmetic(.divide, $0[0], $0[1]) })
    }
}

extension PredicateExpressions.IntRemainder: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(lhs), try context.fragment(rhs)]
        return .fragment(.combining(parts) { .arithmetic(.remainder, $0[0], $0[1]) })
    }
}

extension PredicateExpressions.UnaryMinus: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let operand = try context.fragment(wrapped)
        // A negative literal is one literal, as the parser reads `-5`.
        switch operand.expr.kind {
        case .literal(.integer(let value)) where value != .min:
            return .fragment(QueryFragment(Expr(.literal(.integer(-value)))))
        case .literal(.decimal(let value)):
            return .fragment(QueryFragment(Expr(.literal(.decimal(-value)))))
        default:
            return .fragment(.combining([operand]) { .negate($0[0]) })
        }
    }
}

// MARK: - Ranges and membership

extension PredicateExpressions.Range: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        .range(try context.fragment(lower), try context.fragment(upper), .halfOpen)
    }
}

extension PredicateExpressions.ClosedRange: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        .range(try context.fragment(lower), try context.fragment(upper), .closed)
    }
}

extension PredicateExpressions.RangeExpressionContains: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(element), try context.fragment(range)]
        return .fragment(.combining(parts) { .membership($0[0], $0[1]) })
    }
}

extension PredicateExpressions.SequenceContains: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        // `["Rent", "Travel"].contains($0.name)` is membership; `$0.name.contains("x")`
        // on a String is a substring test.
        let container = try context.convert(sequence)
        let item = try context.fragment(element)
        if case .path = container {
            let base = try context.fragment(of: container)
            return .fragment(.combining([base, item]) { .stringTest(.contains, $0[0], $0[1], []) })
        }
        let list = try context.fragment(of: container)
        return .fragment(.combining([item, list]) { .membership($0[0], $0[1]) })
    }
}

extension PredicateExpressions.CollectionContainsCollection: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(base), try context.fragment(other)]
        return .fragment(.combining(parts) { .stringTest(.contains, $0[0], $0[1], []) })
    }
}

extension PredicateExpressions.SequenceStartsWith: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let parts = [try context.fragment(base), try context.fragment(prefix)]
        return .fragment(.combining(parts) { .stringTest(.beginsWith, $0[0], $0[1], []) })
    }
}

// MARK: - To-many relationships

extension PredicateExpressions.SequenceContainsWhere: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let collection = try context.fragment(sequence)
        let (name, body) = try context.inClosure(binding: variable.key) { inner throws(PredicateBridgeError) in
            try inner.fragment(test)
        }
        return .fragment(.combining([collection, body]) { .elementTest(.any, $0[0], Closure(variable: name, body: $0[1])) })
    }
}

extension PredicateExpressions.SequenceAllSatisfy: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let collection = try context.fragment(sequence)
        let (name, body) = try context.inClosure(binding: variable.key) { inner throws(PredicateBridgeError) in
            try inner.fragment(test)
        }
        return .fragment(.combining([collection, body]) { .elementTest(.all, $0[0], Closure(variable: name, body: $0[1])) })
    }
}

extension PredicateExpressions.Filter: BridgeConvertible {
    func bridged(_ context: inout BridgeContext) throws(PredicateBridgeError) -> BridgeNode {
        let collection = try context.fragment(sequence)
        let (name, body) = try context.inClosure(binding: variable.key) { inner throws(PredicateBridgeError) in
            try inner.fragment(filter)
        }
        return .fragment(.combining([collection, body]) { .filter($0[0], Closure(variable: name, body: $0[1])) })
    }
}
