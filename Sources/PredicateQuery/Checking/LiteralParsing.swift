// Dates and UUIDs written as strings: `date('2024-05-01')`, or a string literal
// compared with a Date or UUID attribute.

import Foundation

package enum LiteralParsing {
    /// Parses ISO 8601: a date (`2024-05-01`, midnight UTC) or a date and time with
    /// an optional fraction of a second and an optional zone (`Z`, `+02:00`; UTC if
    /// none).
    package static func date(_ text: String) -> Date? {
        let trimmed = trimmingWhitespace(text)
        // The usual forms are read by hand: ISO8601DateFormatter costs hundreds of
        // microseconds a query, and keeps only milliseconds of a fraction. The
        // rest of the ISO 8601 forms pq accepts (zones written `+0530` or `+05`,
        // years before 1600) go to the formatter, but only
        // once their every field is in range and nothing follows them: the
        // formatter reads `2024-02-30` as March 1st, `2024-03-02T25:61:00Z` as the
        // next day, and stops reading at `2024-03-02Tgarbage` (and at a lowercase
        // `t`), where a query must get an error rather than another date.
        if let date = commonDate(trimmed) { return date }
        guard isWellFormedDate(trimmed) else { return nil }
        return formatterDate(trimmed)
    }

    /// Whether `text` is `YYYY-MM-DD`, then optionally `T`, `HH:MM:SS`, a fraction
    /// (a point and digits) and a zone (`Z`, `±HH:MM`, `±HHMM` or
    /// `±HH`), and nothing else, with the day within its month (by the Julian leap
    /// rule before 1600, as Foundation's calendar has it; by the Gregorian after),
    /// hours below 24, minutes and seconds below 60, and the zone below 24 hours.
    static func isWellFormedDate(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in isWellFormedDate(bytes) }
    }

    private static func isWellFormedDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func number(_ start: Int, _ count: Int) -> Int? { decimal(bytes, start, count) }
        func byte(_ index: Int, isOneOf expected: String) -> Bool {
            index < bytes.count && expected.utf8.contains(bytes[index])
        }
        guard let year = number(0, 4), byte(4, isOneOf: "-"), let month = number(5, 2), byte(7, isOneOf: "-"),
            let day = number(8, 2), (1...12).contains(month), (1...days(inMonth: month, of: year)).contains(day)
        else { return false }
        guard bytes.count > 10 else { return true }
        guard byte(10, isOneOf: "T"), let hour = number(11, 2), byte(13, isOneOf: ":"), let minute = number(14, 2),
            byte(16, isOneOf: ":"), let second = number(17, 2), hour < 24, minute < 60, second < 60
        else { return false }
        var zone = 19
        if byte(19, isOneOf: ".") {
            zone = 20
            while byte(zone, isOneOf: "0123456789") { zone += 1 }
            guard zone > 20 else { return false }
        }
        switch bytes.count - zone {
        case 0: return true
        case 1: return byte(zone, isOneOf: "Z")
        case 3, 5, 6:
            guard byte(zone, isOneOf: "+-"), let hours = number(zone + 1, 2), hours < 24 else { return false }
            switch bytes.count - zone {
            case 3: return true
            case 5: return number(zone + 3, 2).map { $0 < 60 } ?? false
            default: return byte(zone + 3, isOneOf: ":") && (number(zone + 4, 2).map { $0 < 60 } ?? false)
            }
        default: return false
        }
    }

    /// `YYYY-MM-DD`, optionally followed by `THH:MM:SS`, a fraction of a second
    /// (`.123456`, any number of digits) and `Z` or `±HH:MM`, with every field in
    /// range and the year from 1600 (before the Gregorian reform Foundation's
    /// calendar is Julian); nil for anything else. The date is the whole seconds
    /// since 2001 plus the fraction read as a Double, so that `ISODate` prints a
    /// date read from a store back to exactly its Double.
    static func commonDate(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            func number(_ start: Int, _ count: Int) -> Int? { decimal(bytes, start, count) }
            func byte(_ index: Int, is expected: Character) -> Bool {
                index < bytes.count && bytes[index] == expected.asciiValue
            }
            guard let year = number(0, 4), byte(4, is: "-"), let month = number(5, 2), byte(7, is: "-"),
                let day = number(8, 2), (1...12).contains(month), year >= 1600,
                (1...days(inMonth: month, of: year)).contains(day)
            else { return nil }
            var seconds = 0
            var fraction = 0.0
            if bytes.count > 10 {
                guard byte(10, is: "T"), let hour = number(11, 2), byte(13, is: ":"), let minute = number(14, 2),
                    byte(16, is: ":"), let second = number(17, 2), hour < 24, minute < 60, second < 60
                else { return nil }
                seconds = hour * 3600 + minute * 60 + second
                // The fraction: a point and at least one digit.
                var zone = 19
                if byte(19, is: ".") {
                    zone = 20
                    while zone < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[zone]) { zone += 1 }
                    guard zone > 20, zone - 20 <= 40 else { return nil }
                    fraction = Self.fraction(String(decoding: bytes[19..<zone], as: UTF8.self))
                }
                switch bytes.count - zone {
                case 0: break
                case 1 where byte(zone, is: "Z"): break
                case 6 where (byte(zone, is: "+") || byte(zone, is: "-")) && byte(zone + 3, is: ":"):
                    guard let zoneHours = number(zone + 1, 2), let zoneMinutes = number(zone + 4, 2), zoneHours < 24,
                        zoneMinutes < 60
                    else { return nil }
                    let offset = zoneHours * 3600 + zoneMinutes * 60
                    seconds -= byte(zone, is: "+") ? offset : -offset
                default: return nil
                }
            }
            let days = Int(CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day)))
            let sinceReferenceDate = days * 86_400 + seconds - 978_307_200
            return Date(timeIntervalSinceReferenceDate: TimeInterval(sinceReferenceDate) + fraction)
        }
    }

    /// A fraction of a second written `.ddd…`, as a Double (0 for anything else).
    static func fraction(_ text: String) -> Double {
        Double("0" + text) ?? 0
    }

    /// The number the ASCII digits `bytes[start..<start + count]` write; nil if
    /// they run past the end or any is not a digit.
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// The days of `month` (1–12) in `year`: leap years by the Gregorian rule, and by
    /// the Julian before 1600, as Foundation's calendar has them.
    private static func days(inMonth month: Int, of year: Int) -> Int {
        let isLeap = year < 1600 ? year % 4 == 0 : year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// ISO 8601 as Foundation's formatter reads it, in the forms pq accepts.
    static func formatterDate(_ trimmed: String) -> Date? {
        formatters.withLock { formatters in
            for formatter in formatters {
                if let date = formatter.date(from: trimmed) { return date }
            }
            return nil
        }
    }

    /// One formatter for each form, tried in this order; made once (making one takes
    /// hundreds of microseconds) and used under the lock (a formatter is not promised
    /// to be safe to share between threads).
    private static let formatters = Locked<[ISO8601DateFormatter]>(
        [
            [.withInternetDateTime],
            [.withInternetDateTime, .withFractionalSeconds],
            [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate],
            [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withFractionalSeconds],
            [.withFullDate, .withDashSeparatorInDate],
        ].map { (options: ISO8601DateFormatter.Options) in
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.formatOptions = options
            return formatter
        })

    /// Parses a UUID in its usual 8-4-4-4-12 hexadecimal form, any case.
    package static func uuid(_ text: String) -> UUID? {
        UUID(uuidString: trimmingWhitespace(text))
    }

    /// `text` without the whitespace at either end that `CharacterSet.whitespaces` holds (tabs,
    /// Unicode's space separators, and the zero-width space, which Core Foundation's set keeps from
    /// older Unicode), as `trimmingCharacters(in: .whitespaces)` gives it, without Foundation's
    /// NSString round trip (a tenth of a date literal's check on Linux).
    static func trimmingWhitespace(_ text: String) -> String {
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !isWhitespace($0) })
        else { return "" }
        if first == scalars.startIndex, last == scalars.index(before: scalars.endIndex) { return text }
        return String(scalars[first...last])
    }
}
