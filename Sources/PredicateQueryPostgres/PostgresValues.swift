// Values between pq and PostgreSQL's text format.
//
// Bound values go out as text with their type's OID, so the server never guesses
// a type: Int as int8, Double as float8 (shortest exact digits), Bool as bool,
// dates as timestamptz to the microsecond (UTC), UUIDs as uuid, Data as bytea.
// Read values come back as the stored forms `StoreValueEncoding` decodes (Bool as
// 0/1, dates as seconds), so rows decode as they do from SQLite. A Double that is
// not a number is nil both ways, as SQLite stores it.

import Foundation
import PredicateQuery
import PredicateQueryStore

enum PostgresValues {
    static let bool: Oid = 16, bytea: Oid = 17, int8: Oid = 20, int2: Oid = 21, int4: Oid = 23, text: Oid = 25
    static let float4: Oid = 700, float8: Oid = 701, varchar: Oid = 1043, bpchar: Oid = 1042
    static let timestamp: Oid = 1114, timestamptz: Oid = 1184, numeric: Oid = 1700, uuid: Oid = 2950, date: Oid = 1082

    /// The OID a value of `type` is bound as.
    static func oid(for type: ValueType) -> Oid {
        switch type {
        case .bool: bool
        case .int: int8
        case .double, .duration: float8
        case .string, .url: text
        case .date: timestamptz
        case .uuid: uuid
        case .data: bytea
        case .enumeration(let enumType): enumType.rawType == .int ? int8 : text
        case .object: int8
        case .opaque, .null, .list: 0
        }
    }

    /// A value as `StoreValueEncoding` stores it (Bool 0/1, dates as seconds, UUIDs as
    /// 16 bytes), turned into a parameter of `type`.
    static func parameter(_ stored: Value, as type: ValueType, dates: DateEncoding) throws(StoreError) -> PostgresParameter {
        let oid = oid(for: type)
        switch (stored, type) {
        case (.null, _): return PostgresParameter(text: nil, type: oid)
        // NaN is bound as nil, as SQLite's sqlite3_bind_double binds it.
        case (.double(let number), _) where number.isNaN: return PostgresParameter(text: nil, type: oid)
        case (.int(let flag), .bool): return PostgresParameter(text: flag != 0 ? "t" : "f", type: oid)
        case (.double, .date), (.int, .date):
            let date = StoreValueEncoding.date(fromSeconds: stored.doubleValue ?? 0, dates)
            return PostgresParameter(text: try timestampText(date), type: oid)
        case (.int(let number), _): return PostgresParameter(text: String(number), type: oid)
        case (.double(let number), _): return PostgresParameter(text: doubleText(number), type: oid)
        case (.string(let text), _):
            guard !text.unicodeScalars.contains("\u{0}") else {
                throw StoreError("PostgreSQL's text cannot hold U+0000, which a bound string holds")
            }
            return PostgresParameter(text: text, type: oid)
        case (.data(let bytes), .uuid) where bytes.count == 16:
            return PostgresParameter(text: StoreValueEncoding.uuid(fromBytes: bytes).uuidString, type: oid)
        case (.data(let bytes), _):
            return PostgresParameter(text: "\\x" + bytes.map { String(format: "%02x", $0) }.joined(), type: bytea)
        case (.uuid(let uuid), _): return PostgresParameter(text: uuid.uuidString, type: PostgresValues.uuid)
        case (.bool(let flag), _): return PostgresParameter(text: flag ? "t" : "f", type: bool)
        case (.date(let date), _): return PostgresParameter(text: try timestampText(date), type: timestamptz)
        }
    }

    /// A moment as a whole microsecond that timestamptz and pq's Double since 2001 both
    /// hold (`PostgreSQLSupport.isWholeMicroseconds`): the moment itself if it is one,
    /// else the nearest such microsecond at or before it (far dates: unchanged).
    static func wholeMicroseconds(_ moment: Date) -> Date {
        guard !PostgreSQLSupport.isWholeMicroseconds(moment) else { return moment }
        let micros = (moment.timeIntervalSinceReferenceDate * 1_000_000).rounded(.down)
        guard micros.magnitude < 9e15 else { return moment }
        for back in 0..<8 {
            let candidate = Date(timeIntervalSinceReferenceDate: (micros - Double(back)) / 1_000_000)
            if PostgreSQLSupport.isWholeMicroseconds(candidate) { return candidate }
        }
        return moment
    }

    /// Throws where a date (or a list's) is not a whole number of microseconds as pq
    /// holds it, in Double seconds since 2001 (`PostgreSQLSupport.isWholeMicroseconds`).
    static func requireMicroseconds(_ value: Value) throws(StoreError) {
        guard case .date(let date) = value, !PostgreSQLSupport.isWholeMicroseconds(date) else { return }
        throw StoreError("PostgreSQL's timestamptz holds microseconds; \(date) is finer")
    }

    static func doubleText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        return "\(number)"
    }

    /// `2024-03-10 12:00:00.123456+00`: a date to the microsecond, in UTC.
    static func timestampText(_ date: Date) throws(StoreError) -> String {
        // Since 1970 only: the date has come through the mapping's seconds since 1970
        // (pq's own Double since 2001 is checked before, by `requireMicroseconds`).
        let since1970 = date.timeIntervalSince1970
        let whole = (since1970 * 1_000_000).rounded()
        guard whole.magnitude < 9e15, whole / 1_000_000 == since1970 else {
            throw StoreError("PostgreSQL's timestamptz holds microseconds; \(date) is finer")
        }
        let micros = Int64(whole)
        let (days, dayMicros) = floorDivide(micros, 86_400_000_000)
        let (year, month, day) = CivilDate.date(fromDays: days)
        guard year >= 1, year <= 294_276 else { throw StoreError("PostgreSQL cannot hold the date \(date)") }
        let seconds = dayMicros / 1_000_000
        let fraction = dayMicros % 1_000_000
        return String(
            format: "%04lld-%02lld-%02lld %02lld:%02lld:%02lld.%06lld+00", year, month, day, seconds / 3600,
            seconds / 60 % 60, seconds % 60, fraction)
    }

    /// The seconds since 1970 of PostgreSQL's ISO timestamp text (`2024-03-10 12:00:00.5+00`).
    static func seconds(fromTimestamp text: String) -> Double? {
        let scalars = Array(text.utf8)
        var index = 0
        func number(_ digits: Int? = nil) -> Int64? {
            var value: Int64 = 0
            var count = 0
            while index < scalars.count, scalars[index] >= 48, scalars[index] <= 57, digits.map({ count < $0 }) ?? true {
                value = value * 10 + Int64(scalars[index] - 48)
                index += 1
                count += 1
            }
            return count == 0 ? nil : value
        }
        func skip(_ byte: UInt8) -> Bool {
            guard index < scalars.count, scalars[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(), skip(45), let month = number(), skip(45), let day = number() else { return nil }
        var micros: Int64 = 0
        if skip(32) || skip(84) {
            guard let hour = number(), skip(58), let minute = number(), skip(58), let second = number() else { return nil }
            micros = ((hour * 60 + minute) * 60 + second) * 1_000_000
            if skip(46) {
                let start = index
                guard var fraction = number(6) else { return nil }
                for _ in (index - start)..<6 { fraction *= 10 }
                micros += fraction
            }
        }
        let days = CivilDate.days(year: year, month: month, day: day)
        return Double(days * 86_400_000_000 + micros) / 1_000_000
    }

    /// A column's text as the stored value `StoreValueEncoding.decode` reads.
    static func stored(_ text: String?, oid: Oid, dates: DateEncoding) -> Value {
        guard let text else { return .null }
        switch oid {
        case int8, int4, int2: return Int64(text).map(Value.int) ?? .string(text)
        // A Double that is not a number is nil, as SQLite stores it.
        case float8, float4, numeric: return text == "NaN" ? .null : parseDouble(text).map(Value.double) ?? .string(text)
        case bool: return .int(text == "t" ? 1 : 0)
        case timestamptz, timestamp, date:
            guard let seconds = seconds(fromTimestamp: text) else { return .string(text) }
            let moment = Date(timeIntervalSince1970: seconds)
            return .double(StoreValueEncoding.seconds(of: moment, dates))
        case bytea: return hexBytes(text).map(Value.data) ?? .string(text)
        // As `UUID.uuidString` spells it (upper case), so a uuid key reads as its attribute does.
        case uuid: return .string(UUID(uuidString: text)?.uuidString ?? text)
        default: return .string(text)
        }
    }

    static func parseDouble(_ text: String) -> Double? {
        switch text {
        case "Infinity": .infinity
        case "-Infinity": -.infinity
        case "NaN": nil
        default: Double(text)
        }
    }

    private static func hexBytes(_ text: String) -> Data? {
        guard text.hasPrefix("\\x") else { return nil }
        var bytes = Data()
        var high: UInt8?
        for byte in text.utf8.dropFirst(2) {
            let nibble: UInt8
            switch byte {
            case 48...57: nibble = byte - 48
            case 97...102: nibble = byte - 87
            case 65...70: nibble = byte - 55
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a / b
        let remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }
}

extension Value {
    fileprivate var doubleValue: Double? {
        switch self {
        case .double(let number): number
        case .int(let number): Double(number)
        default: nil
        }
    }
}
