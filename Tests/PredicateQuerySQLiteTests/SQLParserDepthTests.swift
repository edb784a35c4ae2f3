// Lowering rejects SQL too deep for SQLite's parser (`limit.sqlNesting`) from an
// estimate. The estimate must be safe, so whatever it accepts SQLite must
// prepare, and useful, so that ordinary nesting is accepted: checked here on deep
// queries of every construct and on random mixtures of them. It is measured on the
// SQL tree as it is rendered, and is held to the estimate pq read from the SQL
// text before (`SQLTextDepthOracle`), so the same queries are accepted and refused.

import Foundation
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery
@testable import PredicateQuerySQLite

struct SQLParserDepthTests {
    /// Wrappers that nest a condition `c` one level deeper, each in its own way.
    static let wrappers: [(name: String, wrap: @Sendable (String) -> String)] = [
        ("negation", { "!(limit > 1 && \($0))" }),
        ("disjunction", { "(name == 'a' || \($0))" }),
        ("case-insensitive test", { "(name contains[cd] 'a' || \($0))" }),
        ("membership", { "(limit in {1, 2} || \($0))" }),
        ("arithmetic", { $0.replacingOccurrences(of: "limit", with: "(limit + 1)") }),
        ("unary minus", { $0.replacingOccurrences(of: "limit", with: "-limit") }),
        ("quantifier", { "(any transactions.amount > 1 || \($0))" }),
        ("closure", { "transactions.contains(where: { t in t.amount > 1 || \($0) })" }),
        ("aggregate", { "(transactions.@sum.amount > 1 || \($0))" }),
    ]

    /// Compiles `text`; if lowering accepts it, SQLite must run it.
    private func acceptedAndRuns(_ text: String, _ store: SQLiteStore) -> Bool? {
        let result = QueryCompiler.compile("Budget where " + text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled else {
            // Only the depth limits may stop these queries.
            let codes = Set(result.diagnostics.map(\.code))
            #expect(codes.isSubset(of: [.sqlTooDeep, .nestingTooDeep]), "\(codes): \(text.prefix(300))")
            return codes.contains(.sqlTooDeep) ? false : nil
        }
        do {
            _ = try store.fetch(compiled)
            return true
        } catch {
            Issue.record("accepted but SQLite failed (\(error)): \(text.prefix(300))\n\(compiled.sql.prefix(600))")
            return true
        }
    }

    @Test(arguments: wrappers.indices)
    func eachConstructNestsUntilTheEstimateStopsIt(_ index: Int) throws {
        let (store, _) = try ExampleStore.make()
        let wrapper = Self.wrappers[index]
        var text = "limit > 1"
        var deepestAccepted = 0
        for depth in 1...40 {
            text = wrapper.wrap(text)
            guard let accepted = acceptedAndRuns(text, store) else { break }
            if accepted { deepestAccepted = depth } else { break }
        }
        // Nested closures are correlated subqueries, which SQLite's parser itself
        // takes only six deep; the estimate allows four of them.
        let floor = wrapper.name == "closure" ? 4 : 8
        #expect(deepestAccepted >= floor, "\(wrapper.name): only \(deepestAccepted) levels accepted")
    }

    @Test(arguments: TestSeeds.with([1, 2, 3]))
    func randomMixturesThatAreAcceptedRun(seed: UInt64) throws {
        let (store, _) = try ExampleStore.make()
        var random = SplitMix64(seed: seed)
        var accepted = 0
        for _ in 0..<60 {
            var text = "limit > 1"
            for _ in 0..<random.int(1...30) { text = random.pick(Self.wrappers).wrap(text) }
            if acceptedAndRuns(text, store) == true { accepted += 1 }
        }
        #expect(accepted >= 10)
    }

    /// The measure taken as the tree is rendered is the estimate read from the SQL
    /// text: on every golden form, each construct nested deep and nested Double
    /// arithmetic (which PostgreSQL writes with guards around each operation), in
    /// both dialects, whether the query is accepted or refused. (Random mixtures:
    /// the next test, once per seed.)
    @Test func theTreeIsMeasuredAsItsTextWasEstimated() throws {
        var texts: [(text: String, entity: String?)] = GoldenFile.cases(
            "Lowering/SpecForms.txt", target: "PredicateQuerySQLiteTests"
        ).map { ($0.input, $0.entity) }
        for wrapper in Self.wrappers {
            var text = "limit > 1"
            for _ in 0..<24 {
                text = wrapper.wrap(text)
                texts.append(("Budget where " + text, nil))
            }
        }
        var arithmetic = "amount"
        for step in 0..<12 {
            arithmetic = step.isMultiple(of: 2) ? "(\(arithmetic) * 1.5 + amount)" : "(amount - \(arithmetic) / 2.5)"
            texts.append(("Transaction where \(arithmetic) > 1", nil))
        }
        let (compared, refused) = try measureAsEstimated(texts)
        print("SQLParserDepthTests: \(compared) statements measured as their text was estimated, \(refused) too deep")
        #expect(compared >= 400)
        #expect(refused >= 20)
    }

    /// The same, on random mixtures of the wrappers.
    @Test(arguments: TestSeeds.with([1, 2, 3]))
    func randomMixturesAreMeasuredAsTheirTextWasEstimated(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var texts: [(text: String, entity: String?)] = []
        for _ in 0..<TestBudget.count(quick: 30, thorough: 60) {
            var text = "limit > 1"
            for _ in 0..<random.int(1...30) { text = random.pick(Self.wrappers).wrap(text) }
            texts.append(("Budget where " + text, nil))
        }
        let (compared, _) = try measureAsEstimated(texts)
        #expect(compared >= texts.count)
    }

    /// Compiles each text for SQLite and PostgreSQL and holds the measure to the
    /// estimate from the text; how many statements were compared and refused.
    private func measureAsEstimated(_ texts: [(text: String, entity: String?)]) throws -> (compared: Int, refused: Int) {
        let (store, _) = try ExampleStore.make()
        var postgres = StoreMapping.make(for: store.schema, layout: .plain)
        postgres.database = .postgreSQL
        var compared = 0
        var refused = 0
        for (text, entity) in texts {
            for mapping in [store.mapping, postgres] {
                let result = QueryCompiler.compile(text, schema: store.schema, mapping: mapping, defaultEntity: entity)
                guard let checked = result.checked,
                    let measured = try? SQLLowering.measuredStatement(checked, mapping: mapping)
                else { continue }
                let estimated = SQLTextDepthOracle.estimate(measured.sql)
                #expect(measured.parserDepth == estimated, "\(mapping.database): \(text.prefix(300))")
                // Lowering measures only statements with more parentheses than fit unmeasured:
                // no parenthesis may cost more than the bound that shortcut rests on.
                let parentheses = measured.sql.utf8.count { $0 == UInt8(ascii: "(") }
                #expect(
                    measured.parserDepth <= parentheses * SQLParserDepth.mostEntriesPerParenthesis,
                    "\(mapping.database): \(text.prefix(300))")
                // And the count that shortcut reads, kept as the text is written, is every
                // parenthesis the statement has (no name in these schemas holds one).
                if let compiled = result.compiled {
                    #expect(compiled.text.openingParentheses == parentheses, "\(mapping.database): \(text.prefix(300))")
                }
                // Accepted exactly where the text's estimate fits, with the same message otherwise.
                let tooDeep = result.diagnostics.filter { $0.code == .sqlTooDeep }
                if estimated > SQLParserDepth.budget {
                    #expect(tooDeep.contains { $0.message.contains("about \(estimated) levels of its stack") })
                    refused += 1
                } else {
                    #expect(tooDeep.isEmpty)
                }
                compared += 1
            }
        }
        return (compared, refused)
    }

    @Test func doubleNegationsCostNothing() throws {
        let (store, _) = try ExampleStore.make()
        let text = "Budget where " + String(repeating: "!", count: 80) + "name == 'Rent'"
        let compiled = try #require(QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping).compiled)
        #expect(!compiled.sql.contains("NOT"))
        #expect(try store.fetch(compiled).count == 1)
    }
}
