// The checker's cap on diagnostics: a megabyte of unknown names ends in at most
// `Parser.maxDiagnostics` diagnostics, the last saying how many more there were, and
// checking and rendering them take time linear in the input (the service issue: a
// filter of 160,000 unknown names took minutes and produced a 75 MB answer).

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct DiagnosticCapTests {
    /// About a megabyte: `zq0 || zq1 || …` in groups of 9,000 (under the chain limit), joined by `&&`.
    private static func unknownNames(groups: Int) -> (text: String, names: Int) {
        let group = "(" + (0..<9_000).map { "zq\($0 % 1_000)" }.joined(separator: " || ") + ")"
        return (Array(repeating: group, count: groups).joined(separator: " && "), groups * 9_000)
    }

    @Test func aMegabyteOfUnknownNamesIsCappedAndSaysHowManyMore() throws {
        let (predicate, names) = Self.unknownNames(groups: 15)
        let text = "Budget where " + predicate
        #expect(text.utf8.count > 1_000_000)
        let clock = ContinuousClock()
        var result: CompileResult?
        var rendered = ""
        var json = ""
        let elapsed = clock.measure {
            let compiled = QueryCompiler.compile(
                text, schema: ExampleSchemas.combined, mapping: .make(for: ExampleSchemas.combined, layout: .coreData))
            rendered = DiagnosticRenderer().render(compiled.diagnostics, in: text)
            json = DiagnosticRenderer().renderJSON(compiled.diagnostics, in: text)
            result = compiled
        }
        let diagnostics = try #require(result?.diagnostics)
        #expect(diagnostics.count == Parser.maxDiagnostics)
        #expect(diagnostics.allSatisfy { $0.code == .unknownProperty })
        #expect(
            diagnostics.last?.notes.last?.message
                == "and \(names - Parser.maxDiagnostics) more not shown; pq reports at most 50 per input")
        // The first fifty in source order, each located once.
        #expect(diagnostics.map(\.span.start) == diagnostics.map(\.span.start).sorted())
        #expect(rendered.contains("<input>:1:15: error: value of type 'Budget' has no member 'zq0'"))
        #expect(rendered.utf8.count < 50 * 500)
        #expect(json.utf8.count < 50 * 1_000)
        print("DiagnosticCapTests: \(text.utf8.count) bytes, \(names) unknown names checked and rendered in \(elapsed)")
        // Generous: a release build takes about 0.2 s, a debug build a few seconds.
        #expect(elapsed < .seconds(30), "took \(elapsed)")
    }

    @Test func aDeadlineStopsTheCheckerAndTheCompiler() {
        let (predicate, _) = Self.unknownNames(groups: 15)
        var limits = Limits.standard
        limits.deadline = .now - .seconds(1)
        let schema = ExampleSchemas.combined
        let mapping = StoreMapping.make(for: schema, layout: .coreData)
        for text in ["Budget where " + predicate, predicate] {
            let result = QueryCompiler.compile(text, schema: schema, mapping: mapping, limits: limits)
            #expect(result.diagnostics.map(\.code) == [.deadlinePassed], "\(result.diagnostics.prefix(3))")
        }
        // A query that checks before the deadline is not lowered after it.
        let small = QueryCompiler.compile("Budget where limit > 1", schema: schema, mapping: mapping, limits: limits)
        #expect(small.compiled == nil)
        #expect(small.diagnostics.map(\.code) == [.deadlinePassed])
        // Without a deadline, the same text compiles.
        #expect(QueryCompiler.compile("Budget where limit > 1", schema: schema, mapping: mapping).compiled != nil)
        // A cache keeps no result cut short, and keys results without the deadline.
        let cache = QueryCache(schema: schema, mapping: mapping)
        #expect(cache.compile("Budget where limit > 1", limits: limits).compiled == nil)
        var later = Limits.standard
        later.deadline = .now + .seconds(60)
        #expect(cache.compile("Budget where limit > 1", limits: later).compiled != nil)
        #expect(cache.compile("Budget where limit > 1").compiled != nil)
        #expect(cache.statistics.entries == 1)
        #expect(cache.statistics.hits == 1)
    }

    @Test func inferenceOverEveryEntityIsCappedToo() {
        let (predicate, _) = Self.unknownNames(groups: 2)
        let result = QueryCompiler.compile(
            predicate, schema: ExampleSchemas.combined, mapping: .make(for: ExampleSchemas.combined, layout: .coreData))
        #expect(result.diagnostics.map(\.code) == [.unknownProperty])
        #expect(result.diagnostics.first?.message == "cannot find 'zq0' in any entity of the schema")
    }

    @Test func fewerErrorsThanTheCapGetNoNote() {
        let result = QueryCompiler.compile(
            "Budget where zq0 == 1 && zq1 == 2", schema: ExampleSchemas.combined,
            mapping: .make(for: ExampleSchemas.combined, layout: .coreData))
        #expect(result.diagnostics.count == 2)
        #expect(result.diagnostics.allSatisfy { !$0.notes.contains { $0.message.contains("more not shown") } })
    }

    @Test func linesAndColumnsOfManyOffsetsMatchOneAtATime() {
        let text = "a\u{301}b = 'ç'\n\tx\r\n👩‍👩‍👧 == y\n\nlast line"
        let source = SourceText(text)
        // Every offset at the start of a scalar (spans never split one), inside a character or not.
        let bytes = Array(text.utf8)
        let offsets = (0...bytes.count).filter { $0 == bytes.count || bytes[$0] & 0xC0 != 0x80 }
        let all = source.locations(of: offsets.reversed())
        for offset in offsets {
            #expect(all[offset] == source.location(of: offset), "offset \(offset)")
        }
    }
}
