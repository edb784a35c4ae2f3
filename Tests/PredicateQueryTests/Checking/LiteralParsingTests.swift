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
                #expect(LiteralParsing.date(text) == formatter, "\(text)")
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
