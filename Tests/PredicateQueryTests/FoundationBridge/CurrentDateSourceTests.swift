// `foundationSource()` writes dates from `now()` and `today()` as the Swift that
// computes them when the app runs, not as the moment pq printed them (a new
// user's `pq --emit swift 'date > now() - 7d'` printed a fixed date).
// EmitSwiftTests compiles such source with swiftc and runs it.

import Foundation
import Testing

@testable import PredicateQuery

struct CurrentDateSourceTests {
    /// A moment and zone the printed source must not mention.
    static let environment = QueryEnvironment(
        now: Date(timeIntervalSinceReferenceDate: 817_000_000.25), timeZone: TimeZone(identifier: "Asia/Tokyo") ?? .gmt)

    private func source(_ text: String) throws -> String {
        try ModelQuery<Book>(parsing: text).foundationSource(environment: Self.environment).predicate
    }

    @Test func datesFromNowAndTodayAreComputedInTheApp() throws {
        let week = try source("published > now() - 7d")
        #expect(week.contains("let value1: Date = Date.now.addingTimeInterval(-604800.0)\n"), "\(week)")
        let day = try source("published >= today() && published < today() + 1d")
        #expect(day.contains("let value1: Date = Calendar(identifier: .gregorian).startOfDay(for: .now)\n"), "\(day)")
        let tomorrow = "let value2: Date = Calendar(identifier: .gregorian).startOfDay(for: .now).addingTimeInterval(86400.0)"
        #expect(day.contains(tomorrow + "\n"), "\(day)")
        let ahead = try source("published < 1h + now()")
        #expect(ahead.contains("= Date.now.addingTimeInterval(3600.0)\n"), "\(ahead)")
        for text in [week, day, ahead] {
            #expect(!text.contains("timeIntervalSinceReferenceDate") && !text.contains("// A date"), "\(text)")
        }
    }

    @Test func aWrittenDateStaysTheDateWritten() throws {
        let text = try source("published > date('2024-03-01T10:00:00Z')")
        #expect(text.contains("Date(timeIntervalSinceReferenceDate: 730980000.0)"), "\(text)")
        #expect(!text.contains("Date.now") && !text.contains("// A date"), "\(text)")
    }

    /// A form with no Swift spelling here, or a written date equal to a computed
    /// one, prints the moment, and says so.
    @Test func aDateWithNoSpellingPrintsTheMomentWithANote() throws {
        let coalesced = try source("published > (now() ?? date('2024-01-01'))")
        #expect(coalesced.hasPrefix("// A date computed from now() or today() below is the moment this was printed"))
        #expect(coalesced.contains("Date(timeIntervalSinceReferenceDate: 817000000.25)"), "\(coalesced)")
        let equal = try source("published > now() || published == date('2026-11-22T00:26:40.25Z')")
        #expect(equal.hasPrefix("// A date computed"), "\(equal)")
        #expect(!equal.contains("Date.now"), "\(equal)")
    }
}
