// The arguments of an NSPredicate-style format string (see `PredicateFormat`):
// typed values from code, lists for `IN %@` and `BETWEEN %@`, objects by their
// store key, or text typed later by the query (as words on a command line are).

import Foundation

/// An argument of a format string.
public enum FormatArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// A value with its type.
    case value(Value)
    /// Several values, for `IN %@`, `BETWEEN %@` and `max(%@)`.
    case list([Value])
    /// Text whose type the query decides (as typed on a command line); a list is
    /// comma-separated, and an object is `Budget:3`.
    case text(String)
    /// An object of `entity`, by its store key (`Z_PK`): `budget == %@`.
    case object(entity: String, key: Int64)

    public init(stringLiteral value: String) { self = .value(.string(value)) }
    public init(integerLiteral value: Int64) { self = .value(.int(value)) }
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
    public init(nilLiteral: ()) { self = .value(.null) }

    /// A date argument.
    public init(_ date: Date) { self = .value(.date(date)) }
    /// A UUID argument.
    public init(_ uuid: UUID) { self = .value(.uuid(uuid)) }
    /// An object argument, by the builder's typed store key: `budget == %@` with `ObjectKey<Budget>(3)`.
    public init<Model: QueryModel>(_ key: ObjectKey<Model>) { self = .object(entity: Model.entityName, key: key.key) }

    /// The text of a `%K` argument.
    var keyPathText: String? {
        switch self {
        case .value(.string(let text)), .text(let text): text
        default: nil
        }
    }

    var isNil: Bool { self == .value(.null) }

    /// The elements of a list argument (`.list`, or text split at commas, brackets
    /// optional); nil for a single value.
    var elements: [FormatArgument]? {
        switch self {
        case .list(let values): return values.map { .value($0) }
        case .text(let text):
            var body = text.trimmingCharacters(in: .whitespaces)
            if body.hasPrefix("["), body.hasSuffix("]") { body = String(body.dropFirst().dropLast()) }
            if body.trimmingCharacters(in: .whitespaces).isEmpty { return [] }
            return body.split(separator: ",", omittingEmptySubsequences: false).map {
                .text($0.trimmingCharacters(in: .whitespaces))
            }
        default: return nil
        }
    }

    /// The argument as a number, for `%d` (`integer`) or `%f`; nil if it is not one.
    func number(integer: Bool) -> FormatArgument? {
        switch self {
        case .value(.int(let value)): return integer ? self : .value(.double(Double(value)))
        case .value(.double(let value)):
            if integer { return value.rounded() == value ? Int64(exactly: value).map { .value(.int($0)) } : nil }
            return self
        case .value(.bool(let value)): return integer ? .value(.int(value ? 1 : 0)) : .value(.double(value ? 1 : 0))
        case .text(let text):
            let digits = text.replacingOccurrences(of: "_", with: "")
            if integer { return Int64(digits).map { .value(.int($0)) } }
            return Double(digits).map { .value(.double($0)) }
        default: return nil
        }
    }
}
