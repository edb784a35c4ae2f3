// The hand-written reader of common ISO 8601 dates agrees with Foundation's
// formatter on every date it accepts, and leaves everything else to it.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct LiteralParsingTests {
    @Test func commonFormsAgreeWithTheFormatter() {
        var random = SplitMix64(seed: 20_241_123)
        var readByHand = 0
        for _ in 0..<3_000 {
            let year = Int.random(in: 1...2400, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...31, using: &random)
            let date = String(format: "%04d-%02d-%02d", year, month, day)
            let time = String(
                format: "T%02d:%02d:%02d", Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random),
                Int.random(in: 0...59, using: &random))
            let zone = ["", "Z", "+02:00", "-05:30", "+14:00"].randomElement(using: &random)!
            for text in [date, date + time + zone] {
                let fast = LiteralParsing.commonDate(text)
                let formatter = LiteralParsing.formatterDate(text)
                if let fast {
                    readByHand += 1
                    #expect(fast == formatter, "\(text)")
                }
                #expect(LiteralParsing.date(text) == formatter, "\(text)")
            }
        }
        // About a third of the years are after 1600, so the comparison above is not vacuous.
        #expect(readByHand > 1_500)
    }

    @Test func unusualFormsGoToTheFormatter() {
        #expect(LiteralParsing.commonDate("2024-02-30") == nil)
        #expect(LiteralParsing.commonDate("2024-05-01T10:30:00.250Z") == nil)
        #expect(LiteralParsing.date("2024-05-01T10:30:00.250Z") == Date(timeIntervalSince1970: 1_714_559_400.25))
        #expect(LiteralParsing.commonDate("2024-5-1") == nil)
        #expect(LiteralParsing.commonDate("2024-05-01T24:00:00") == nil)
        #expect(LiteralParsing.date("not a date") == nil)
        #expect(LiteralParsing.commonDate("2024-02-29") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(LiteralParsing.commonDate("2023-02-29") == nil)
    }
}
