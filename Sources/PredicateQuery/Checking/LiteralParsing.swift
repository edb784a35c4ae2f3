// Dates and UUIDs written as strings: `date('2024-05-01')`, or a string literal
// compared with a Date or UUID attribute.

import Foundation

package enum LiteralParsing {
    /// Parses ISO 8601: a date (`2024-05-01`, midnight UTC) or a date and time with
    /// an optional fraction of a second and an optional zone (`Z`, `+02:00`; UTC if
    /// none).
    package static func date(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let attempts: [ISO8601DateFormatter.Options] = [
            [.withInternetDateTime],
            [.withInternetDateTime, .withFractionalSeconds],
            [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate],
            [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate, .withFractionalSeconds],
            [.withFullDate, .withDashSeparatorInDate],
        ]
        for options in attempts {
            formatter.formatOptions = options
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }

    /// Parses a UUID in its usual 8-4-4-4-12 hexadecimal form, any case.
    package static func uuid(_ text: String) -> UUID? {
        UUID(uuidString: text.trimmingCharacters(in: .whitespaces))
    }
}
