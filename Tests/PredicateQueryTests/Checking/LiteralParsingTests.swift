// The hand-written reader of common ISO 8601 dates agrees with Foundation's
// formatter on every date it accepts (to the millisecond the formatter keeps, for
// fractions of a second), and leaves everything else to it.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct LiteralParsingTests {
    @Test func commonFormsAgreeWithTheFormatter() {
        var random = SplitMix64(seed: 20_241_123)
        var readByHand = 0
        var fractionsCompared = 0
        var refused = 0
        var utcCalendar = Calendar(identifier: .gregorian)
        utcCalendar.timeZone = TimeZone(identifier: "UTC") ?? utcCalendar.timeZone
        for _ in 0..<3_000 {
            let year = Int.random(in: 1...2400, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...31, using: &random)
            let date = String(format: "%04d-%02d-%02d", year, month, day)
            let time = String(
                format: "T%02d:%02d:%02d", Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random),
                Int.random(in: 0...59, using: &random))
            let zone = ["", "Z", "+02:00", "-05:30", "+14:00"].randomElement(using: &random)!
            let fraction = String(format: ".%03d", Int.random(in: 0...999, using: &random))
            for text in [date, date + time + zone] {
                let fast = LiteralParsing.commonDate(text)
                let formatter = LiteralParsing.formatterDate(text)
                if let fast {
                    readByHand += 1
                    #expect(fast == formatter, "\(text)")
                }
                // A day past its month's end is refused, where the formatter rolls it
                // over; Foundation's calendar says which days exist.
                var components = DateComponents(year: year, month: month, day: day)
                components.calendar = utcCalendar
                let exists = components.isValidDate
                if !exists { refused += 1 }
                #expect(LiteralParsing.date(text) == (exists ? formatter : nil), "\(text)")
            }
            // (Without a zone the formatter reads a fraction as nothing, so those are left out.)
            let precise = date + time + fraction + zone
            if !zone.isEmpty, let fast = LiteralParsing.commonDate(precise), let formatter = LiteralParsing.formatterDate(precise)
            {
                let difference = fast.timeIntervalSinceReferenceDate - formatter.timeIntervalSinceReferenceDate
                fractionsCompared += 1
                #expect(
                    abs(difference) < 0.001,
                    "\(precise) \(fast.timeIntervalSinceReferenceDate) \(formatter.timeIntervalSinceReferenceDate)")
            }
        }
        // About a third of the years are after 1600, so the comparison above is not vacuous.
        #expect(readByHand > 1_500)
        #expect(fractionsCompared > 500)
        #expect(refused > 100)
    }

    /// What the formatter would read as another date, or read only the start of, is
    /// no date: the query gets an error instead of matching the wrong rows.
    @Test func aDateWithAFieldOutOfRangeOrTextAfterItIsRefused() {
        for text in [
            "2024-03-02Tgarbage", "2024-03-02 whatever", "2024-03-02T23:00:75Z", "2024-02-30", "2024-02-31T25:61:00Z",
            "2023-02-29", "2024-04-31", "2024-03-02T10:00:00+2400", "2024-03-02T10:00:00+01:60", "2024-03-02T10:00:00+1",
            "2024-03-02T10:00:00.", "2024-03-02T10:00:00ZZ", "2024-03-02T10:00", "2024-03-02T", "2024-13-01",
            // The formatter reads the date alone here, dropping the time.
            "2024-03-02t10:00:00z",
        ] {
            #expect(LiteralParsing.date(text) == nil, "\(text)")
        }
        // The forms only the formatter reads are still read, as it reads them.
        let hour = 3_600.0
        let tenOClock = 731_066_400.0  // 2024-03-02T10:00:00Z after 2001-01-01
        for (text, seconds) in [
            ("2024-03-02T10:00:00+0100", tenOClock - hour), ("2024-03-02T10:00:00+01", tenOClock - hour),
            ("2024-03-02T10:00:00-0530", tenOClock + 5.5 * hour), ("2024-03-02T10:00:00Z", tenOClock),
        ] {
            #expect(LiteralParsing.date(text)?.timeIntervalSinceReferenceDate == seconds, "\(text)")
        }
        // Before 1600 Foundation's calendar is Julian, with 1500-02-29.
        #expect(LiteralParsing.date("1500-02-29") != nil)
        #expect(LiteralParsing.date("1500-02-30") == nil)
    }

    @Test func unusualFormsGoToTheFormatter() {
        #expect(LiteralParsing.commonDate("2024-02-30") == nil)
        #expect(LiteralParsing.commonDate("2024-05-01T10:30:00.Z") == nil)
        #expect(LiteralParsing.commonDate("2024-05-01T10:30:00.250Z") == Date(timeIntervalSince1970: 1_714_559_400.25))
        #expect(LiteralParsing.date("2024-05-01T10:30:00.250Z") == Date(timeIntervalSince1970: 1_714_559_400.25))
        #expect(LiteralParsing.commonDate("2024-5-1") == nil)
        #expect(LiteralParsing.commonDate("2024-05-01T24:00:00") == nil)
        #expect(LiteralParsing.date("not a date") == nil)
        #expect(LiteralParsing.commonDate("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(LiteralParsing.commonDate("2023-02-29") == nil)
    }

    @Test func fractionsOfASecondKeepEveryDigit() {
        // 2024-03-10T12:00:00Z is 731_764_800 s after 2001-01-01.
        let date = LiteralParsing.date("2024-03-10T12:00:00.123456Z")
        #expect(date?.timeIntervalSinceReferenceDate == 731_764_800 + 0.123456)
        #expect(LiteralParsing.date("2024-03-10T14:00:00.5+02:00")?.timeIntervalSinceReferenceDate == 731_764_800.5)
    }

    /// The trim before a date or UUID is read is Foundation's `trimmingCharacters(in: .whitespaces)`:
    /// every scalar of the first planes at either end, alone and around a date, trims the same.
    @Test func whitespaceIsTrimmedAsFoundationTrimsIt() {
        var compared = 0
        var trimmedAway = 0
        for value in UInt32(0)...0x3100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let edge = String(Character(scalar))
            for text in [edge, edge + "2024-03-10" + edge, "2024" + edge + "03", edge + edge + "x", "x" + edge + edge] {
                let expected = text.trimmingCharacters(in: .whitespaces)
                #expect(LiteralParsing.trimmingWhitespace(text) == expected, "U+\(String(value, radix: 16))")
                compared += 1
                if expected.unicodeScalars.count < text.unicodeScalars.count { trimmedAway += 1 }
            }
        }
        // Tabs, spaces, no-break spaces, the Zs block and U+200B were trimmed; newlines were not.
        #expect(compared > 60_000 && trimmedAway > 50)
        #expect(LiteralParsing.trimmingWhitespace("\n2024\n") == "\n2024\n")
        #expect(LiteralParsing.trimmingWhitespace("\u{A0}\t2024-03-10\u{3000}") == "2024-03-10")
    }
}
