// Dates printed in ISO 8601 (UTC) at their full precision: whole seconds as
// `2024-03-10T12:00:00Z`, and a fraction of a second, when there is one, with
// just enough digits that `LiteralParsing.date` reads the text back to the same
// Date. Core Data keeps a date as a Double of seconds since 2001, so a date read
// from a store prints, and reads back, exactly.

import Foundation

package enum ISODate {
    /// The date in ISO 8601, UTC, with the shortest fraction of a second that reads
    /// back to the same `timeIntervalSinceReferenceDate` (none when it is whole).
    package static func string(_ date: Date) -> String {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite else { return ISO8601DateFormatter.pq.string(from: date) }
        let whole = interval.rounded(.down)
        let fraction = interval - whole
        let text = ISO8601DateFormatter.pq.string(from: Date(timeIntervalSinceReferenceDate: whole))
        guard fraction > 0, text.hasSuffix("Z") else { return text }
        return String(text.dropLast()) + (fractionDigits(fraction, whole: whole) ?? "") + "Z"
    }

    /// The shortest `.ddd…` (up to 17 digits) for `fraction` such that `whole` plus
    /// the fraction read back as `LiteralParsing` reads it is `whole + fraction`.
    static func fractionDigits(_ fraction: Double, whole: Double) -> String? {
        let target = whole + fraction
        var closest: String?
        for digits in 1...17 {
            let text = String(format: "%.\(digits)f", fraction)
            guard text.hasPrefix("0.") else { continue }  // rounded up to 1
            let candidate = String(text.dropFirst())
            closest = candidate
            if whole + LiteralParsing.fraction(candidate) == target {
                return trimmed(candidate)
            }
        }
        return closest.map(trimmed)
    }

    /// `.500` as `.5`; a fraction that rounds to nothing as no fraction.
    private static func trimmed(_ text: String) -> String {
        var text = text
        while text.hasSuffix("0") { text.removeLast() }
        return text == "." ? "" : text
    }
}
