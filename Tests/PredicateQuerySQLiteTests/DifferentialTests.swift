// SQLite against the reference: for random data and random well-typed queries over
// every example schema, the rows the store returns, in order, must be exactly the
// objects the in-memory evaluator selects, in order. When they disagree, the bug
// is real. A failure prints the seed, the layout and the query text.
//
// Fixed seeds run every time; PQ_SEED adds one more (CI passes a fresh one and
// prints it). The number of cases is `TestBudget`'s (125 per schema and seed, 500
// under PQ_TEST_BUDGET=thorough, as CI runs), or PQ_DIFFERENTIAL_CASES.

import Foundation
import PredicateQueryFuzzing
import PredicateQuerySQLite
import PredicateQueryStoreTestSupport
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct DifferentialTests {
    static var casesPerSchema: Int {
        TestBudget.count("PQ_DIFFERENTIAL_CASES", quick: 125, thorough: 500)
    }

    // Shared with PostgresDifferentialTests (`DifferentialInputs`, in PredicateQueryStoreTestSupport).
    static var seeds: [UInt64] { DifferentialInputs.seeds }

    static var schemas: [(String, Schema)] { DifferentialInputs.schemas }

    /// Counts of what a run did, for the summary and the minimum-cases check.
    struct Tally {
        var compared = 0
        var bothFailed = 0
        var skipped = 0
        /// Queries whose SQL runs a to-many conjunct as one pass over the elements.
        var elementPasses = 0
        var mismatches: [String] = []
        /// How many queries used each form the generator must produce.
        var forms: [GeneratedForm: Int] = [:]

        /// The per-form counts, for the run's report.
        var formReport: String {
            GeneratedForm.allCases.map { "\(forms[$0] ?? 0) \($0.rawValue)" }.joined(separator: "; ")
        }
    }

    @Test("SQLite returns exactly the evaluator's rows, in order", arguments: [StoreMapping.Layout.coreData, .plain])
    func storeAgreesWithEvaluator(layout: StoreMapping.Layout) throws {
        var tally = Tally()
        for seed in Self.seeds {
            for (index, (name, schema)) in Self.schemas.enumerated() {
                let dataSeed = seed &* 1_000 &+ UInt64(index)
                try run(schema, name: name, layout: layout, seed: dataSeed, cases: Self.casesPerSchema, tally: &tally)
            }
        }
        print(
            "differential (\(layout)): \(tally.compared) queries compared, \(tally.bothFailed) failed alike, \(tally.skipped) skipped; seeds \(Self.seeds)"
        )
        print("  forms: \(tally.formReport)")
        for mismatch in tally.mismatches.prefix(5) { Issue.record(Comment(rawValue: mismatch)) }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) mismatches")
        #expect(tally.skipped * 20 < tally.compared, "too many generated queries did not compile: \(tally.skipped)")
        for form in GeneratedForm.allCases {
            #expect((tally.forms[form] ?? 0) > 0, "no generated query used the form: \(form.rawValue)")
        }
        let minimum = Self.casesPerSchema * Self.schemas.count * Self.seeds.count * 9 / 10
        #expect(tally.compared >= minimum)
    }

    @Test("to-many conjuncts agree as element passes and as probes per object")
    func elementPassesAgreeWithEvaluator() throws {
        // The same queries twice: on stores with only SwiftData's foreign-key indexes,
        // where most top-level to-many conjuncts become passes, and with an index on
        // every attribute, where a conjunct on one keeps its neighbours correlated.
        var passes: [Bool: Int] = [:]
        for indexed in [false, true] {
            var tally = Tally()
            for seed in Self.seeds {
                for (index, (name, schema)) in Self.schemas.enumerated() {
                    let dataSeed = seed &* 1_000 &+ UInt64(index)
                    try run(
                        schema, name: name, layout: .coreData, seed: dataSeed, cases: Self.casesPerSchema / 2,
                        tally: &tally, indexEveryAttribute: indexed
                    ) { queries, entity in queries.conjunctionQuery(for: entity) }
                }
            }
            print(
                "differential (to-many conjuncts, \(indexed ? "every attribute indexed" : "foreign keys indexed")): \(tally.compared) queries compared, \(tally.elementPasses) with element passes; seeds \(Self.seeds)"
            )
            print("  forms: \(tally.formReport)")
            for mismatch in tally.mismatches.prefix(5) { Issue.record(Comment(rawValue: mismatch)) }
            #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) mismatches")
            #expect(tally.skipped * 20 < tally.compared, "too many generated queries did not compile: \(tally.skipped)")
            for form in [GeneratedForm.constantClosureBody, .collectionThroughToOne, .stringModifier] {
                #expect((tally.forms[form] ?? 0) > 0, "no generated query used the form: \(form.rawValue)")
            }
            #expect(tally.elementPasses * 5 > tally.compared, "too few queries took element passes to test them")
            passes[indexed] = tally.elementPasses
        }
        #expect((passes[true] ?? 0) < (passes[false] ?? 0), "indexes should keep some conjuncts correlated: \(passes)")
    }

    private func run(
        _ schema: Schema, name: String, layout: StoreMapping.Layout, seed: UInt64, cases: Int, tally: inout Tally,
        indexEveryAttribute: Bool = false,
        query: (inout RandomQueryGenerator, Entity) -> String = { queries, entity in queries.query(for: entity) }
    ) throws {
        var graphs = RandomGraphGenerator(schema: schema, seed: seed)
        let graph = graphs.graph()
        let store = try SQLiteStore.create(at: ":memory:", schema: schema, layout: layout)
        try store.insert(graph)
        if indexEveryAttribute { try Self.indexEveryAttribute(of: store) }
        var queries = RandomQueryGenerator(schema: schema, seed: seed ^ 0x5151)
        defer { tally.forms.merge(queries.forms, uniquingKeysWith: +) }
        for caseIndex in 0..<cases {
            guard let entity = schema.entities.randomElement(using: &queries.random) else { continue }
            let text = query(&queries, entity)
            let result = QueryCompiler.compile(text, schema: schema, mapping: store.mapping)
            guard let compiled = result.compiled, let checked = result.checked else {
                tally.skipped += 1
                if tally.skipped <= 3 {
                    Issue.record(
                        "seed \(seed) \(name) case \(caseIndex): generated query does not compile:\n\(text)\n\(DiagnosticRenderer().render(result.diagnostics, in: text))"
                    )
                }
                continue
            }
            if compiled.sql.contains("t0.\"Z_PK\" IN (SELECT") { tally.elementPasses += 1 }
            if let leak = SQLLiteralCheck.literal(in: compiled.sql) {
                tally.mismatches.append(
                    "seed \(seed), \(name), case \(caseIndex): the SQL holds a literal (\(leak)):\n\(text)\n\(compiled.sql)")
            }
            let parameters = queries.parameters
            let expected = Result {
                try Evaluator(graph: graph, parameters: parameters, environment: ValuePools.environment).run(checked)
            }
            let actual = Result {
                try store.fetch(compiled, parameters: parameters, environment: ValuePools.environment).map(\.id)
            }
            switch (expected, actual) {
            case (.success(let want), .success(let got)):
                tally.compared += 1
                if caseIndex % 5 == 0,
                    let counting = QueryCompiler.compile(text, schema: schema, mapping: store.mapping, count: true).compiled
                {
                    let count = try? store.count(counting, parameters: parameters, environment: ValuePools.environment)
                    if count != Int64(want.count) {
                        tally.mismatches.append(
                            "seed \(seed), \(name), \(layout), case \(caseIndex): count \(String(describing: count)) but \(want.count) rows:\n\(text)\n\(counting.sql)"
                        )
                    }
                }
                if want.map(\.key) != got.map(\.key) {
                    tally.mismatches.append(
                        """
                        seed \(seed), \(name), \(layout), case \(caseIndex):
                        \(text)
                        parameters: \(parameters)
                        evaluator: \(want.map(\.description))
                        SQLite:    \(got.map(\.description))
                        SQL: \(compiled.sql)
                        """)
                }
            case (.failure, .failure):
                tally.bothFailed += 1
            case (.failure(let error), .success):
                tally.mismatches.append(
                    "seed \(seed), \(name), \(layout), case \(caseIndex): evaluator failed (\(error)) but SQLite did not:\n\(text)"
                )
            case (.success, .failure(let error)):
                tally.mismatches.append(
                    "seed \(seed), \(name), \(layout), case \(caseIndex): SQLite failed (\(error)) but the evaluator did not:\n\(text)\nSQL: \(compiled.sql)"
                )
            }
        }
    }

    /// Adds an index on every attribute column of every entity's table.
    private static func indexEveryAttribute(of store: SQLiteStore) throws {
        var done: Set<String> = []
        for (_, entity) in store.mapping.entities.sorted(by: { $0.key < $1.key }) {
            for column in entity.columns.values.sorted() where done.insert(entity.table + "." + column).inserted {
                try store.execute("CREATE INDEX \"\(entity.table)_\(column)_TEST\" ON \"\(entity.table)\" (\"\(column)\")")
            }
        }
    }
}
