// `pq lint --sql` shows, for each site it checked, the SQL pq would run for it.
// What the site captures is a placeholder; an equality with a captured value is
// shown as the `=` it runs with for a value, never as the slot marker `=?1=`
// (which read as broken SQL: `x =?1= ?1`).

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftAppLintSQLTests {
    static let models = SwiftModelSource.File(
        path: "Models.swift",
        text: """
            import SwiftData
            @Model final class Feed {
                var title: String = ""
                var rank: Int = 0
                init() {}
            }
            @Model final class Article {
                var memo: String?
                var feed: Feed?
                init() {}
            }
            """)

    /// The SQL of each site of `source`, in source order.
    static func sql(_ source: String) -> [String?] {
        SwiftAppLint.lint([models, SwiftModelSource.File(path: "Use.swift", text: source)], sql: true)
            .sites.filter { $0.file == "Use.swift" }.map(\.sql)
    }

    @Test func anEqualityWithACapturedValueShowsAsEquals() throws {
        let shown = Self.sql(
            """
            func f(t: String, o: String?, r: Int) {
                let a = #Predicate<Article> { $0.memo == t }
                let b = #Predicate<Article> { $0.memo == o }
                let c = #Predicate<Article> { $0.feed?.rank == r }
                let d = #Predicate<Article> { $0.memo == "x" }
            }
            """)
        try #require(shown.count == 4)
        for (index, sql) in shown.enumerated() {
            let text = try #require(sql, "site \(index) has no SQL")
            #expect(!text.contains("=?"), "\(text)")
            #expect(text.contains(" = ?1"), "\(text)")
        }
        #expect(shown[0]?.contains(#"t0."ZMEMO" = ?1"#) == true, "\(shown[0] ?? "")")
        #expect(shown[2]?.contains(#"t1."ZRANK" = ?1"#) == true, "\(shown[2] ?? "")")
    }

    @Test func aCapturedListShowsAsItsMarker() throws {
        let shown = Self.sql("func f(names: [String]) { let p = #Predicate<Article> { names.contains($0.memo ?? \"\") } }")
        let text = try #require(shown.first ?? nil)
        // `?1` is the coalesce's fallback; the captured list is the second binding.
        #expect(text.contains(#"coalesce(t0."ZMEMO", ?1) IN (?2[])"#), "\(text)")
    }
}
