// The SQL/store issue's acceptance cases, verbatim, and the index-friendly prefix.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

struct LoweringAcceptanceTests {
    private func compile(_ text: String, _ store: SQLiteStore, entity: String? = nil) throws -> CompiledQuery {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping, defaultEntity: entity)
        guard let compiled = result.compiled else {
            throw StoreError(DiagnosticRenderer().render(result.diagnostics, in: text))
        }
        return compiled
    }

    @Test func limitAndNameLowerToPlainIndexableSQL() throws {
        let (store, _) = try ExampleStore.make()
        let compiled = try compile("limit > 100 && name contains 'Vac'", store)
        #expect(
            compiled.sql == """
                SELECT t0."Z_PK", t0."Z_ENT", t0."ZNAME", t0."ZLIMIT" FROM "ZBUDGET" t0 \
                WHERE (t0."ZLIMIT" > ?1) AND (instr(t0."ZNAME", ?2) > 0) ORDER BY t0."Z_PK"
                """)
        let resolved = try BindingResolver.resolve(compiled, parameters: [:], environment: ExampleStore.environment)
        #expect(resolved.values == [.double(100), .string("Vac")])
    }

    @Test func negatedComparisonKeepsObjectsWhoseValueIsNil() throws {
        let schema = Schema(entities: [
            Entity("Budget", attributes: [Attribute("name", .string), Attribute("limit", .double, optional: true)])
        ])
        let store = try SQLiteStore.create(at: ":memory:", schema: schema)
        var graph = ObjectGraph(schema: schema)
        graph.insert("Budget", ["name": .string("big"), "limit": .double(500)])
        graph.insert("Budget", ["name": .string("small"), "limit": .double(50)])
        graph.insert("Budget", ["name": .string("unset")])
        try store.insert(graph)
        let rows = try store.fetch(try compile("!(limit > 100)", store))
        #expect(rows.map { $0.values["name"] } == [.string("small"), .string("unset")])
        // Plain SQL would have dropped 'unset': NOT (NULL > 100) is NULL.
        let unset = try store.fetch(try compile("limit != 500", store))
        #expect(unset.map { $0.values["name"] } == [.string("small"), .string("unset")])
    }

    @Test func noneIncludesSnippetsWithoutTags() throws {
        let (store, graph) = try ExampleStore.make()
        let rows = try store.fetch(try compile("none tags.name == 'swift'", store))
        let untagged = graph.objects(of: "Snippet").filter { (graph[$0]?.toMany["tags"] ?? []).isEmpty }
        #expect(!untagged.isEmpty)
        #expect(Set(untagged).isSubset(of: Set(rows.map(\.id))))
        #expect(
            !rows.contains { row in
                (graph[row.id]?.toMany["tags"] ?? []).contains { graph[$0]?.value("name") == .string("swift") }
            })
    }

    @Test func enumCaseRunsAsRawValueEquality() throws {
        let (store, _) = try ExampleStore.make()
        let compiled = try compile("genre == .kids", store)
        #expect(compiled.sql.contains("WHERE t0.\"ZGENRE\" = ?1"))
        let resolved = try BindingResolver.resolve(compiled, parameters: [:], environment: ExampleStore.environment)
        #expect(resolved.values == [.int(2)])
        #expect(try store.fetch(compiled).count == 3)
    }

    @Test func caseSensitivePrefixUsesAnIndex() throws {
        let (store, _) = try ExampleStore.make()
        try store.execute("CREATE INDEX ZBUDGET_ZNAME_INDEX ON ZBUDGET (ZNAME)")
        let compiled = try compile("Budget where name beginswith 'Vac'", store)
        let plan = try store.queryPlan(compiled).joined(separator: "\n")
        #expect(plan.contains("USING INDEX ZBUDGET_ZNAME_INDEX (ZNAME>? AND ZNAME<?)"), "plan: \(plan)")
        // A case-insensitive prefix cannot use that index; it still answers correctly.
        let folded = try compile("Budget where name beginswith[c] 'vac'", store)
        #expect(try store.fetch(folded).count == 3)
    }

    @Test func toManyConditionsAreSubqueriesNotJoins() throws {
        let (store, _) = try ExampleStore.make()
        let text = "Snippet where any tags.name == 'swift' && folder.newName == 'Work'"
        // Nothing indexed narrows the snippets: one pass over the tags, looked up by key.
        let pass = try compile(text, store)
        #expect(pass.sql.contains("t0.\"Z_PK\" IN (SELECT j2.\"Z_7SNIPPETS\" FROM \"Z_7TAGS\""))
        #expect(!pass.sql.contains("DISTINCT"))
        let passPlan = try store.queryPlan(pass).joined(separator: "\n")
        #expect(passPlan.contains("USING INTEGER PRIMARY KEY (rowid=?)"), "plan: \(passPlan)")
        #expect(try store.fetch(pass).map(\.id.key) == [1, 2])
        // With an index on the folder's name, a few snippets are probed, one EXISTS each.
        try store.execute("CREATE INDEX ZFOLDER_ZNAME_INDEX ON ZFOLDER (ZNAME)")
        let probe = try compile(text, store)
        #expect(probe.sql.contains("EXISTS (SELECT 1 FROM \"Z_7TAGS\""))
        let probePlan = try store.queryPlan(probe).joined(separator: "\n")
        #expect(probePlan.contains("INDEX ZFOLDER_ZNAME_INDEX (ZNAME=?)"), "plan: \(probePlan)")
        #expect(try store.fetch(probe).map(\.id.key) == [1, 2])
    }

    @Test func aggregatesGroupOnlyWhereNoElementsCannotMatch() throws {
        let (store, _) = try ExampleStore.make()
        // Budget 7 has no transactions: `@count > 2` and `@sum > 500` are false for
        // it, so grouping the transactions finds every match.
        let grouped = try compile("Budget where transactions.@count > 2", store)
        #expect(grouped.sql.contains("GROUP BY t1.\"ZBUDGET\" HAVING count(*) > ?1"))
        #expect(try store.fetch(grouped).map(\.id.key) == [1, 2])
        // `@count < 2` holds for budget 7, which has no group: it stays correlated.
        let correlated = try compile("Budget where transactions.@count < 2", store)
        #expect(!correlated.sql.contains("GROUP BY"))
        #expect(try store.fetch(correlated).map(\.id.key).contains(7))
        // A parameter's value is not known when the form is chosen: correlated too.
        let parameterized = try compile("Budget where transactions.@count > $n", store)
        #expect(!parameterized.sql.contains("GROUP BY"))
        #expect(try store.fetch(parameterized, parameters: ["n": .single(.int(-1))]).map(\.id.key).contains(7))
    }

    @Test func aLimitOrAClosureOverTheObjectKeepsTheProbe() throws {
        let (store, _) = try ExampleStore.make()
        let limited = try compile("Budget where any transactions.amount > 100 limit 1", store)
        #expect(limited.sql.contains("WHERE EXISTS (SELECT 1 FROM \"ZTRANSACTION\""))
        #expect(try store.fetch(limited).map(\.id.key) == [1])
        let closure = try compile("Budget where transactions.contains(where: { $0.amount * 10 > limit })", store)
        #expect(closure.sql.contains("WHERE EXISTS (SELECT 1 FROM \"ZTRANSACTION\""))
    }
}

struct LoweringShapeTests {
    @Test func longChainsStayWithinSQLitesExpressionDepth() throws {
        let (store, _) = try ExampleStore.make()
        // SQLite parses `a OR b OR …` into a tree as deep as the chain; 5,000 terms
        // would exceed its depth limit of 1,000 if they were not rendered balanced.
        let text = "Budget where " + (0..<5_000).map { "limit == \($0)" }.joined(separator: " || ")
        let compiled = try #require(QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping).compiled)
        #expect(try store.fetch(compiled).map(\.id.key) == [1, 2, 3, 4, 5, 6, 8])
    }
}
