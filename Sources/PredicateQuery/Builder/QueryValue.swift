// Swift types that attributes are stored as, and how their values are written in
// a query.
//
// Whole `Double`s are written as integer literals (`100`, not `100.0`), as a
// person writes them; the checker gives them the attribute's type either way.
// Dates become `date('…')` when that literal is exact, and bound values otherwise.

import Foundation

/// A Swift type an attribute can be stored as, and whose values a query can hold.
public protocol QueryValue {
    /// The attribute type this Swift type is stored as.
    static var queryAttributeType: AttributeType { get }
    /// Whether the type is an optional (`String?`).
    static var queryIsOptional: Bool { get }
    /// For an enum stored by its raw value: its cases.
    static var queryEnumType: EnumType? { get }
    /// This value, written in a query.
    var queryFragment: QueryFragment { get }
}

extension QueryValue {
    public static var queryIsOptional: Bool { false }
    public static var queryEnumType: EnumType? { nil }
}

extension String: QueryValue {
    public static var queryAttributeType: AttributeType { .string }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.string(self)))) }
}

extension Bool: QueryValue {
    public static var queryAttributeType: AttributeType { .bool }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.bool(self)))) }
}

extension Int: QueryValue {
    public static var queryAttributeType: AttributeType { .integer(bits: 64) }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.integer(Int64(self))))) }
}

extension Int64: QueryValue {
    public static var queryAttributeType: AttributeType { .integer(bits: 64) }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.integer(self)))) }
}

extension Int32: QueryValue {
    public static var queryAttributeType: AttributeType { .integer(bits: 32) }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.integer(Int64(self))))) }
}

extension Int16: QueryValue {
    public static var queryAttributeType: AttributeType { .integer(bits: 16) }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.integer(Int64(self))))) }
}

extension Int8: QueryValue {
    public static var queryAttributeType: AttributeType { .integer(bits: 8) }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.integer(Int64(self))))) }
}

extension Double: QueryValue {
    public static var queryAttributeType: AttributeType { .double }
    public var queryFragment: QueryFragment { QueryValues.number(self) }
}

extension Float: QueryValue {
    public static var queryAttributeType: AttributeType { .float }
    public var queryFragment: QueryFragment { QueryValues.number(Double(self)) }
}

extension Date: QueryValue {
    public static var queryAttributeType: AttributeType { .date }
    public var queryFragment: QueryFragment { QueryValues.date(self) }
}

extension UUID: QueryValue {
    public static var queryAttributeType: AttributeType { .uuid }
    public var queryFragment: QueryFragment {
        QueryFragment(Expr(.call(.uuid, [Expr(.literal(.string(uuidString)))])))
    }
}

extension URL: QueryValue {
    public static var queryAttributeType: AttributeType { .url }
    public var queryFragment: QueryFragment { QueryFragment(Expr(.literal(.string(absoluteString)))) }
}

extension Data: QueryValue {
    public static var queryAttributeType: AttributeType { .data }
    public var queryFragment: QueryFragment { QueryValues.bound(.data(self), kind: "data") }
}

extension Optional: QueryValue where Wrapped: QueryValue {
    public static var queryAttributeType: AttributeType { Wrapped.queryAttributeType }
    public static var queryIsOptional: Bool { true }
    public static var queryEnumType: EnumType? { Wrapped.queryEnumType }
    public var queryFragment: QueryFragment {
        switch self {
        case .some(let value): value.queryFragment
        case .none: QueryFragment(Expr(.literal(.null)))
        }
    }
}

/// An enum stored by its `Int` or `String` raw value, as SwiftData stores enums.
/// Declare the conformance; everything else has a default:
///
///     enum Genre: Int, QueryEnum { case action = 1, kids, horror }
public protocol QueryEnum: QueryValue, RawRepresentable, CaseIterable where RawValue: QueryEnumRawValue {
    /// The enum's name in the schema; by default the Swift type's name.
    static var queryEnumName: String { get }
}

/// The raw value types of enums pq can store: `Int` and `String`.
public protocol QueryEnumRawValue {
    /// The raw value a case is stored as.
    var enumRawValue: EnumType.RawValue { get }
    /// The type of the raw values: Int or String.
    static var enumRawType: EnumType.RawType { get }
}

extension Int: QueryEnumRawValue {
    /// The integer as an enum raw value.
    public var enumRawValue: EnumType.RawValue { .int(Int64(self)) }
    /// Int, the raw type of an enum whose raw values are integers.
    public static var enumRawType: EnumType.RawType { .int }
}

extension String: QueryEnumRawValue {
    /// The string as an enum raw value.
    public var enumRawValue: EnumType.RawValue { .string(self) }
    /// String, the raw type of an enum whose raw values are strings.
    public static var enumRawType: EnumType.RawType { .string }
}

extension QueryEnum {
    public static var queryEnumName: String { describedTypeName(Self.self) }
    public static var queryAttributeType: AttributeType { .named(queryEnumName) }

    public static var queryEnumType: EnumType? {
        EnumType(
            queryEnumName, rawType: RawValue.enumRawType,
            cases: allCases.map { (QueryValues.caseName(of: $0) ?? "\($0.rawValue)", $0.rawValue.enumRawValue) })
    }

    /// `.kids`, as the text DSL writes a case; the raw value if the case has no plain name.
    public var queryFragment: QueryFragment {
        if let name = QueryValues.caseName(of: self) { return QueryFragment(Expr(.enumCase(name))) }
        switch rawValue.enumRawValue {
        case .int(let value): return QueryFragment(Expr(.literal(.integer(value))))
        case .string(let value): return QueryFragment(Expr(.literal(.string(value))))
        }
    }
}

/// How values become query syntax.
enum QueryValues {
    /// A number: whole values as integer literals, others as decimals, and
    /// infinities and NaN (which have no literal) as bound values.
    static func number(_ value: Double) -> QueryFragment {
        guard value.isFinite else { return bound(.double(value), kind: "double") }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992, !(value == 0 && value.sign == .minus) {
            return QueryFragment(Expr(.literal(.integer(Int64(value)))))
        }
        return QueryFragment(Expr(.literal(.decimal(value))))
    }

    /// A date: `date('2024-03-01T00:00:00.25Z')`, at full precision (see `ISODate`),
    /// when that reads back as exactly this date, otherwise a bound value.
    static func date(_ value: Date) -> QueryFragment {
        let text = ISODate.string(value)
        if LiteralParsing.date(text) == value {
            return QueryFragment(Expr(.call(.date, [Expr(.literal(.string(text)))])))
        }
        return bound(.date(value), kind: "date")
    }

    /// A value bound as a parameter whose reserved name is derived from the value,
    /// so equal values share one name and a query's text stays deterministic.
    static func bound(_ value: Value, kind: String) -> QueryFragment {
        let name = "pq_\(kind)_" + String(fingerprint(of: value), radix: 16)
        return QueryFragment(Expr(.parameter(name)), boundValues: [name: value])
    }

    /// FNV-1a over the value's bytes.
    private static func fingerprint(of value: Value) -> UInt64 {
        var bytes: [UInt8]
        switch value {
        case .data(let data): bytes = [UInt8](data)
        case .date(let date): bytes = withUnsafeBytes(of: date.timeIntervalSinceReferenceDate.bitPattern) { Array($0) }
        case .double(let number): bytes = withUnsafeBytes(of: number.bitPattern) { Array($0) }
        default: bytes = Array(value.description.utf8)
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }

    /// The name of an enum case, if printing it gives its plain name (it does unless
    /// the enum customises its description).
    static func caseName(of value: Any) -> String? {
        if value is CustomStringConvertible || value is CustomDebugStringConvertible { return nil }
        let name = String(describing: value)
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isXIDStart,
            name.unicodeScalars.allSatisfy({ $0 == "_" || $0.properties.isXIDContinue })
        else { return nil }
        return name
    }
}
