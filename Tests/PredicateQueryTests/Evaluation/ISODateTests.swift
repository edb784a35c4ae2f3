// Dates print at full precision: whole seconds without a fraction, and any other
// date with the shortest fraction that reads back to exactly the same Double.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct ISODateTests {
    @Test func wholeSecondsPrintWithoutAFraction() {
        #expect(ISODate.string(Date(timeIntervalSinceReferenceDate: 731_764_800)) == "2024-03-10T12:00:00Z")
        #expect(ISODate.string(Date(timeIntervalSinceReferenceDate: 731_764_800.5)) == "2024-03-10T12:00:00.5Z")
        #expect(ISODate.string(Date(timeIntervalSinceReferenceDate: -0.25)) == "2000-12-31T23:59:59.75Z")
    }

    @Test func printedDatesReadBackExactly() {
        var random = SplitMix64(seed: 20_261_124)
        for _ in 0..<5_000 {
            // Seconds since 2001 as Core Data stores them: whole, milliseconds, or any Double.
            let whole = Double(Int.random(in: -3_000_000_000...3_000_000_000, using: &random))
            let interval =
                [
                    whole, whole + Double(Int.random(in: 0...999, using: &random)) / 1000,
                    whole + Double.random(in: 0..<1, using: &random),
                ].randomElement(using: &random) ?? whole
            let text = ISODate.string(Date(timeIntervalSinceReferenceDate: interval))
            #expect(
                LiteralParsing.date(text)?.timeIntervalSinceReferenceDate == interval, "\(interval) printed as \(text)")
        }
    }
}
