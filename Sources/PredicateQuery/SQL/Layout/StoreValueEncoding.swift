// How values are stored: Bool as 0/1, dates as seconds (since 2001 in the Core
// Data layout), UUIDs as 16-byte blobs, enums as their raw values, durations as
// seconds. Used to bind query values and to write and read attributes, so the
// three always agree.

import Foundation

/// Converts between pq's values and the values a store holds.
package enum StoreValueEncoding {
    /// The stored form of a value of the given type.
    public static func encode(_ value: Value, as type: ValueType, dates: DateEncoding) -> Value {
        switch (value, type) {
        case (.bool(let flag), _): return .int(flag ? 1 : 0)
        case (.date(let date), _): return .double(seconds(of: date, dates))
        case (.uuid(let uuid), _): return .data(uuidBytes(uuid))
        case (.int(let number), .double), (.int(let number), .duration): return .double(Double(number))
        default: return value
        }
    }

    /// A stored value read back as a value of the attribute's type.
    public static func decode(_ stored: Value, as type: AttributeType, dates: DateEncoding) -> Value {
        switch (stored, type) {
        case (.null, _): return .null
        case (.int(let number), .bool): return .bool(number != 0)
        case (.int(let number), .double), (.int(let number), .float), (.int(let number), .decimal):
            return .double(Double(number))
        case (.double(let seconds), .date): return .date(date(fromSeconds: seconds, dates))
        case (.int(let seconds), .date): return .date(date(fromSeconds: Double(seconds), dates))
        case (.data(let bytes), .uuid) where bytes.count == 16: return .uuid(uuid(fromBytes: bytes))
        case (.string(let text), .uuid): return UUID(uuidString: text).map(Value.uuid) ?? stored
        default: return stored
        }
    }

    public static func seconds(of date: Date, _ encoding: DateEncoding) -> Double {
        switch encoding {
        case .secondsSinceReferenceDate: date.timeIntervalSinceReferenceDate
        case .secondsSince1970: date.timeIntervalSince1970
        }
    }

    public static func date(fromSeconds seconds: Double, _ encoding: DateEncoding) -> Date {
        switch encoding {
        case .secondsSinceReferenceDate: Date(timeIntervalSinceReferenceDate: seconds)
        case .secondsSince1970: Date(timeIntervalSince1970: seconds)
        }
    }

    public static func uuidBytes(_ uuid: UUID) -> Data {
        withUnsafeBytes(of: uuid.uuid) { Data($0) }
    }

    public static func uuid(fromBytes bytes: Data) -> UUID {
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { buffer in
            for (index, byte) in bytes.prefix(16).enumerated() { buffer[index] = byte }
        }
        return UUID(uuid: raw)
    }
}
