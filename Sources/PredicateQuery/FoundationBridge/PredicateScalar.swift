// The Swift types of the values a converted predicate compares, and how pq's
// values become values of them.
//
// A pq value becomes a constant of the type its other operand has in Swift: a
// literal `3` compared with an `Int16` property is an `Int16` constant. A value
// that type cannot hold exactly (300 for an `Int8`, 0.1 for a `Float`) is
// refused rather than rounded, so the constant always means what the query says.

import Foundation

/// A Swift type whose values converted predicates compare and capture.
protocol PredicateScalar: Equatable, Codable, Sendable {
    /// pq's value as a value of this type, or nil when it has no exact one.
    static func scalar(from value: Value) -> Self?
}

/// A scalar with an order: `<`, `>`, sorting.
protocol PredicateOrdered: PredicateScalar, Comparable {}

/// A number: arithmetic.
protocol PredicateNumber: PredicateOrdered, Numeric {}

extension PredicateScalar {
    /// pq's value as a captured value of this type.
    static func constant(_ value: Value) throws -> PredicateTerm {
        guard let scalar = scalar(from: value) else {
            throw PredicateExportError(
                construct: "the value \(value)", reason: "it has no exact value of the Swift type '\(Self.self)' it is compared with")
        }
        return PredicateNodes.value(scalar)
    }

    /// pq's value (nil included) as a captured value of type `Self?`.
    static func optionalConstant(_ value: Value) throws -> PredicateTerm {
        if value.isNull { return PredicateNodes.value(Self?.none) }
        guard let scalar = scalar(from: value) else {
            throw PredicateExportError(
                construct: "the value \(value)", reason: "it has no exact value of the Swift type '\(Self.self)' it is compared with")
        }
        return PredicateNodes.value(Self?.some(scalar))
    }

    /// `lhs == rhs` or `!=`, both of this type or both optional.
    static func equal(_ lhs: PredicateTerm, _ rhs: PredicateTerm, negated: Bool) throws -> PredicateTerm {
        if lhs.isOptional {
            return try PredicateNodes.equal(lhs, rhs, Self?.self, negated: negated)
        }
        return try PredicateNodes.equal(lhs, rhs, Self.self, negated: negated)
    }

    /// `[values].contains(element)`, nil values left out (they never match).
    static func list(_ values: [Value], contains element: PredicateTerm) throws -> PredicateTerm {
        var scalars: [Self] = []
        for value in values where !value.isNull {
            // A value of no exact Swift value of this type equals no value of it.
            if let scalar = scalar(from: value) { scalars.append(scalar) }
        }
        return try PredicateNodes.listContains(scalars, element)
    }
}

extension PredicateOrdered {
    static func compare(_ lhs: PredicateTerm, _ rhs: PredicateTerm, _ op: PredicateExpressions.ComparisonOperator) throws
        -> PredicateTerm
    {
        try PredicateNodes.compare(lhs, rhs, Self.self, op)
    }
}

// MARK: - Conformances

extension Bool: PredicateScalar {
    static func scalar(from value: Value) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .int(0): false
        case .int(1): true
        default: nil
        }
    }
}

extension String: PredicateOrdered {
    static func scalar(from value: Value) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }
}

extension Date: PredicateOrdered {
    static func scalar(from value: Value) -> Date? {
        if case .date(let date) = value { return date }
        return nil
    }
}

extension UUID: PredicateScalar {
    static func scalar(from value: Value) -> UUID? {
        if case .uuid(let uuid) = value { return uuid }
        return nil
    }
}

extension Data: PredicateScalar {
    static func scalar(from value: Value) -> Data? {
        if case .data(let data) = value { return data }
        return nil
    }
}

extension URL: PredicateScalar {
    static func scalar(from value: Value) -> URL? {
        if case .string(let text) = value { return URL(string: text) }
        return nil
    }
}

/// The integer types: exact conversions only.
protocol PredicateInteger: PredicateNumber, FixedWidthInteger {}

extension PredicateInteger {
    static func scalar(from value: Value) -> Self? {
        switch value {
        case .int(let integer): Self(exactly: integer)
        case .double(let number): Self(exactly: number)
        default: nil
        }
    }
}

extension Int: PredicateInteger {}
extension Int64: PredicateInteger {}
extension Int32: PredicateInteger {}
extension Int16: PredicateInteger {}
extension Int8: PredicateInteger {}

/// The floating-point types: exact conversions only.
protocol PredicateFloatingPoint: PredicateNumber, BinaryFloatingPoint {}

extension PredicateFloatingPoint {
    static func scalar(from value: Value) -> Self? {
        switch value {
        case .int(let integer): Self(exactly: integer)
        case .double(let number): number.isNaN ? nil : Self(exactly: number)
        default: nil
        }
    }
}

extension Double: PredicateFloatingPoint {}
extension Float: PredicateFloatingPoint {}
