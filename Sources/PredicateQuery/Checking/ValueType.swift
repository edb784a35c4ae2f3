// The types the checker assigns to expressions.
//
// Attribute types collapse here to what matters for meaning: every integer width
// is `.int`; `Float`, `Double` and `Decimal` are `.double`; an enum keeps its
// declaration, so its cases and raw values are at hand.

/// The type of a typed expression.
public indirect enum ValueType: Sendable, Hashable, CustomStringConvertible {
    /// A value of Bool.
    case bool
    /// A value of an integer (Int of any width).
    case int
    /// A value of a floating-point number (Double, Float, Decimal).
    case double
    /// A value of String.
    case string
    /// A value of Date.
    case date
    /// A value of UUID.
    case uuid
    /// A value of Data: bytes, only equal or unequal.
    case data
    /// A value of URL, compared as its string.
    case url
    /// A span of time in seconds, from a duration literal.
    case duration
    /// An enum stored as its raw value.
    case enumeration(EnumType)
    /// A Codable struct or transformable value: only nil tests apply.
    case opaque(String)
    /// The type of `nil` before it meets another operand.
    case null
    /// A list of values, for `in`.
    case list(ValueType)
    /// An object of an entity (or of one of its sub-entities), compared by identity:
    /// a to-one relationship, `SELF`, `persistentModelID`, or a parameter bound to a
    /// store key.
    case object(String)

    /// The query type of an attribute type, resolving names against the schema.
    public init(_ type: AttributeType, in schema: Schema) {
        switch type {
        case .bool: self = .bool
        case .integer: self = .int
        case .double, .float, .decimal: self = .double
        case .string: self = .string
        case .date: self = .date
        case .uuid: self = .uuid
        case .data: self = .data
        case .url: self = .url
        case .named(let name):
            if let enumType = schema.enumType(named: name) {
                self = .enumeration(enumType)
            } else {
                self = .opaque(name)
            }
        case .transformable(let name): self = .opaque(name)
        }
    }

    /// The Swift-style name used in messages.
    public var description: String {
        switch self {
        case .bool: "Bool"
        case .int: "Int"
        case .double: "Double"
        case .string: "String"
        case .date: "Date"
        case .uuid: "UUID"
        case .data: "Data"
        case .url: "URL"
        case .duration: "Duration"
        case .enumeration(let enumType): enumType.name
        case .opaque(let name): name
        case .null: "nil"
        case .list(let element): "[\(element)]"
        case .object(let entity): entity
        }
    }

    /// Int or Double.
    public var isNumeric: Bool { self == .int || self == .double }

    /// Whether `<`, `>` and sorting are defined.
    public var isOrdered: Bool {
        switch self {
        case .int, .double, .string, .date, .duration, .url: true
        default: false
        }
    }

    /// Whether string tests and `[c]`/`[d]` apply.
    public var isTextual: Bool { self == .string || self == .url }

    /// Whether the value can only be tested for nil.
    public var isOpaque: Bool {
        switch self {
        case .data, .opaque: true
        default: false
        }
    }
}
