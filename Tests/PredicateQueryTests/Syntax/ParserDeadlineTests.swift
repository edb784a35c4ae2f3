// A service's deadline stops parsing, not only checking: the lexer and the parser
// read the clock every 1,024 tokens, and a budget that runs out while a large
// input is parsed ends there with the one `limit.deadline` error.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct ParserDeadlineTests {
    /// About a megabyte of valid predicate: 12 groups of 5,000 comparisons.
    static let large: String = {
        let group = "(" + (0..<5_000).map { "limit == \($0)" }.joined(separator: " || ") + ")"
        return Array(repeating: group, count: 12).joined(separator: " && ")
    }()

    @Test func anExpiredDeadlineStopsParsingAtOnce() {
        var limits = Limits.standard
        limits.deadline = .now - .seconds(1)
        for result in [Parser.parse(Self.large, limits: limits), Parser.parsePredicate(Self.large, limits: limits)] {
            #expect(result.query == nil)
            #expect(result.diagnostics.map(\.code) == [.deadlinePassed])
            #expect(result.diagnostics.first?.message == "parsing the query took longer than its time budget allows")
        }
        // Without a deadline, the same text parses.
        #expect(Parser.parsePredicate(Self.large).query != nil)
    }

    @Test func aDeadlineThatPassesDuringParsingStopsIt() {
        #expect(Self.large.utf8.count > 900_000)
        let clock = ContinuousClock()
        var unbounded: Parser.Result?
        let whole = clock.measure { unbounded = Parser.parsePredicate(Self.large) }
        #expect(unbounded?.query != nil)
        // A budget of a twentieth of the time the whole parse takes.
        var limits = Limits.standard
        let budget = whole / 20
        var bounded: Parser.Result?
        let cut = clock.measure {
            limits.deadline = .now + budget
            bounded = Parser.parsePredicate(Self.large, limits: limits)
        }
        print("ParserDeadlineTests: the whole parse took \(whole); with a \(budget) budget it stopped after \(cut)")
        #expect(bounded?.query == nil)
        #expect(bounded?.diagnostics.map(\.code) == [.deadlinePassed])
        #expect(cut < whole / 2, "the parse went on past its deadline: \(cut) of \(whole)")
    }

    @Test func theServiceStagesTogetherStopAtTheDeadline() {
        let schema = ExampleSchemas.combined
        var limits = Limits.standard
        limits.deadline = .now - .milliseconds(1)
        let result = QueryCompiler.compile(
            "Budget where " + Self.large, schema: schema, mapping: .make(for: schema, layout: .coreData), limits: limits)
        #expect(result.compiled == nil)
        #expect(result.diagnostics.map(\.code) == [.deadlinePassed])
    }
}
