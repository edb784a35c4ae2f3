// The compile cache: the same result as compiling, once per text and options,
// and bounded.

import PredicateQuery
import PredicateQueryExamples
import Testing

struct QueryCacheTests {
    let schema = ExampleSchemas.combined

    @Test func aTextCompilesOnceAndGivesWhatTheCompilerGives() {
        let cache = QueryCache(schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
        let text = "Budget where limit > 100 && name contains 'Vac'"
        let first = cache.compile(text)
        let second = cache.compile(text)
        let direct = QueryCompiler.compile(text, schema: schema, mapping: cache.mapping)
        #expect(first.compiled?.sql == direct.compiled?.sql)
        #expect(second.compiled?.sql == direct.compiled?.sql)
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
        // Other options are another compilation.
        #expect(cache.compile(text, count: true).compiled?.isCount == true)
        #expect(cache.statistics.misses == 2)
    }

    /// Swift's `String` sees `é` and `e` + U+0301 as equal; pq does not, and neither
    /// may its cache (a random oracle case found the regex cache handing one back for the other).
    @Test func canonicallyEquivalentTextsAreTwoQueries() {
        let cache = QueryCache(schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
        let composed = cache.compile("Budget where name == 'caf\u{E9}'")
        let decomposed = cache.compile("Budget where name == 'cafe\u{301}'")
        #expect(cache.statistics.misses == 2 && cache.statistics.hits == 0)
        #expect(composed.checked?.typedDump.contains("caf\u{E9}") == true)
        #expect(decomposed.checked?.typedDump.unicodeScalars.contains("\u{301}") == true)
    }

    @Test func failuresAreKeptWithTheirDiagnostics() {
        let cache = QueryCache(schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
        let first = cache.compile("Budget where limt > 100")
        let second = cache.compile("Budget where limt > 100")
        #expect(first.compiled == nil && second.compiled == nil)
        #expect(second.diagnostics.map(\.message) == first.diagnostics.map(\.message))
        #expect(first.diagnostics.contains { $0.message.contains("limt") })
        #expect(cache.statistics.hits == 1)
    }

    @Test func aFullCacheDropsTheLeastRecentlyUsedHalf() {
        let cache = QueryCache(schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData), capacity: 4)
        for limit in 0..<4 { _ = cache.compile("Budget where limit > \(limit)") }
        _ = cache.compile("Budget where limit > 0")  // now the most recent
        _ = cache.compile("Budget where limit > 4")  // full: keeps `> 0` and `> 3`, adds this one
        #expect(cache.statistics.entries == 3)
        _ = cache.compile("Budget where limit > 0")
        #expect(cache.statistics.hits == 2)
        _ = cache.compile("Budget where limit > 1")
        #expect(cache.statistics.misses == 6)
    }

    /// A filter of `names` unknown names joined by `||`, distinct for each `tag`:
    /// what a hostile client sends (each is refused, with its diagnostics).
    static func hostileFilter(tag: Int, names: Int) -> String {
        "Budget where " + (0..<names).map { "unknown\(tag)x\($0) == 1" }.joined(separator: " || ")
    }

    @Test func aTextOverTheLargestKeptIsCompiledButNotKept() {
        let cache = QueryCache(schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
        let text = Self.hostileFilter(tag: 0, names: 5_000)
        #expect(text.utf8.count > QueryCache.largestKeptText)
        let first = cache.compile(text)
        let second = cache.compile(text)
        #expect(first.compiled == nil && !first.diagnostics.isEmpty)
        #expect(second.diagnostics.map(\.message) == first.diagnostics.map(\.message))
        #expect(cache.statistics.entries == 0 && cache.statistics.misses == 2)
        #expect(cache.keptTextBytes == 0)
    }

    @Test func keptTextsStayWithinTheByteBudget() {
        let budget = 40_000
        let cache = QueryCache(
            schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData), keptTextBudget: budget)
        // 40 distinct texts of about 2 KB: twice the budget.
        var total = 0
        for tag in 0..<40 {
            let text = Self.hostileFilter(tag: tag, names: 100)
            total += text.utf8.count
            _ = cache.compile(text)
            #expect(cache.keptTextBytes <= budget)
        }
        #expect(total > 2 * budget)
        #expect(cache.statistics.entries < 40 && cache.statistics.entries > 0)
        // What is kept is the most recent, and is found again.
        _ = cache.compile(Self.hostileFilter(tag: 39, names: 100))
        #expect(cache.statistics.hits == 1)
        // A small query still fits beside them.
        _ = cache.compile("Budget where limit > 1")
        _ = cache.compile("Budget where limit > 1")
        #expect(cache.statistics.hits == 2)
        #expect(cache.keptTextBytes <= budget)
    }
}
