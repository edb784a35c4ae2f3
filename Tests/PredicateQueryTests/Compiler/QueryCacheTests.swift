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
}
