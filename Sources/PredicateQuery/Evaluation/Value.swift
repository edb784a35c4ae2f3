// Run-time values: constants in the typed IR, bound parameters, attribute values
// of objects in memory, and values read from a store.

import Foundation

/// One value of an attribute, a constant or a parameter.
public enum Value: Sendable, Hashable {
    /// No value: an optional attribute that is nil.
    case null
    /// A Bool.
    case bool(Bool)
    /// An integer, of any width, as an Int64.
    case int(Int64)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// A moment in time.
    case date(Date)
    /// A UUID.
    case uuid(UUID)
    /// Bytes.
    case data(Data)

    /// Whether this is `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension Value: CustomStringConvertible {
    /// A readable form: numbers and Booleans as Swift prints them, strings quoted,
    /// dates in ISO 8601, data as a byte count.
    public var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): Printer.quoted(value)
        case .date(let value): ISODate.string(value)
        case .uuid(let value): value.uuidString
        case .data(let value): "<\(value.count) bytes>"
        }
    }
}

extension ISO8601DateFormatter {
    /// The formatter pq prints dates with: UTC, with fractional seconds only when present.
    nonisolated(unsafe) package static let pq: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }()
}
