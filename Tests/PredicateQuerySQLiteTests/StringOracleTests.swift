// pq's string tests held to an oracle that shares no code with pq: Foundation's
// own string API (`FoundationStringOracle`). Every operator (`==`, `contains`,
// `beginswith`, `endswith`, `like`, `matches`) with every modifier ([], [c], [d],
// [cd]) over strings built to be hard (`HardStrings`), in the store's SQL and in
// the evaluator. Where pq means something else than Foundation on purpose, the case
// is not skipped: it is counted under the documented difference, and the test
// checks that the difference is the documented one.

import Foundation
import PredicateQuery
import PredicateQuerySQLite
import PredicateQueryStoreTestSupport
import PredicateQueryTestSupport
import Testing

struct StringOracleTests {
    static let seeds = TestSeeds.with([11, 12])
    // The rows, the oracle and the documented differences are shared with
    // PostgresStringOracleTests: `StringOracle`, in PredicateQueryStoreTestSupport.
    typealias Operator = StringOracle.Operator
    typealias Row = StringOracle.Row
    typealias Difference = StringOracle.Difference

    @Test("every string test and modifier agrees with Foundation's string API")
    func stringTestsAgreeWithFoundation() throws {
        var cases = 0
        var byForm: [String: Int] = [:]
        var explained: [Difference: Int] = [:]
        var unlikeNSPredicate = 0
        var canonicalEquivalents = 0
        var unexplained: [String] = []
        var lostByModifier: [String] = []
        for seed in Self.seeds {
            let rows = StringOracle.rows(seed: seed)
            let (fromStore, fromEvaluator) = try Self.run(rows)
            for op in Operator.allCases {
                var plain: Set<Int64> = []
                for modifiers in StringOracle.modifiers {
                    let form = "\(op.rawValue)\(modifiers.modifier)"
                    let sqlKeys = fromStore[form] ?? []
                    #expect(sqlKeys == fromEvaluator[form], "\(form): the store and the evaluator disagree")
                    if modifiers.isEmpty { plain = sqlKeys }
                    for lost in plain.subtracting(sqlKeys) where lostByModifier.count < 10 {
                        lostByModifier.append("\(form) loses \(StringOracle.describe(rows[Int(lost) - 1]))")
                    }
                    for (index, row) in rows.enumerated() {
                        let pq = sqlKeys.contains(Int64(index + 1))
                        let foundation = StringOracle.oracle(op, modifiers, row)
                        cases += 1
                        byForm[form, default: 0] += 1
                        if modifiers.isEmpty, op == .equal, (row.text == row.other) != pq {
                            // Swift's `==` (and Foundation's non-literal compare) sees canonical
                            // equivalents as equal; pq's plain `==` compares scalars, as SQLite does.
                            #expect(
                                row.text.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(
                                    row.other.precomposedStringWithCanonicalMapping.unicodeScalars))
                            canonicalEquivalents += 1
                        }
                        if modifiers.isEmpty, [.contains, .beginsWith, .endsWith].contains(op) {
                            let anchoring: String.CompareOptions =
                                op == .contains ? [] : op == .beginsWith ? [.anchored] : [.anchored, .backwards]
                            if FoundationStringOracle.findAsNSPredicate(row.text, row.needle, [], anchoring) != pq {
                                unlikeNSPredicate += 1
                            }
                        }
                        guard pq != foundation else { continue }
                        if let reason = StringOracle.explanation(op, modifiers, row, pq: pq) {
                            explained[reason, default: 0] += 1
                        } else if unexplained.count < 20 {
                            unexplained.append("\(form): pq \(pq), Foundation \(foundation) for \(StringOracle.describe(row))")
                        }
                    }
                }
            }
        }
        print("string oracle: \(cases) cases against Foundation; seeds \(Self.seeds)")
        print("  per form: " + byForm.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        for reason in Difference.allCases {
            print("  differs as documented, \(reason.rawValue): \(explained[reason] ?? 0)")
        }
        print("  plain == unlike Swift's ==, canonically equivalent strings: \(canonicalEquivalents)")
        print("  plain contains/beginswith/endswith unlike NSPredicate's canonical-equivalence search: \(unlikeNSPredicate)")
        #expect(cases >= 20_000)
        #expect(byForm.count == Operator.allCases.count * StringOracle.modifiers.count)
        #expect(
            unexplained.isEmpty,
            "differences from Foundation that no documented reason explains:\n\(unexplained.joined(separator: "\n"))")
        #expect(lostByModifier.isEmpty, "a modifier lost a plain match:\n\(lostByModifier.joined(separator: "\n"))")
    }

    /// The keys each form selects, by the store's SQL and by the evaluator.
    static func run(_ rows: [Row]) throws -> (store: [String: Set<Int64>], evaluator: [String: Set<Int64>]) {
        var graph = ObjectGraph(schema: StringOracle.schema)
        for row in rows {
            graph.insert(
                "Pair",
                [
                    "text": .string(row.text), "other": .string(row.other), "needle": .string(row.needle),
                    "pattern": .string(row.pattern), "regex": .string(row.regex),
                ])
        }
        let store = try SQLiteStore.create(at: ":memory:", schema: StringOracle.schema)
        try store.insert(graph)
        var fromStore: [String: Set<Int64>] = [:]
        var fromEvaluator: [String: Set<Int64>] = [:]
        for op in Operator.allCases {
            for modifiers in StringOracle.modifiers {
                let form = "\(op.rawValue)\(modifiers.modifier)"
                let query = "Pair where text \(form) \(op.column)"
                let result = QueryCompiler.compile(query, schema: StringOracle.schema, mapping: store.mapping)
                guard let compiled = result.compiled, let checked = result.checked else {
                    Issue.record("\(query) does not compile")
                    continue
                }
                fromStore[form] = Set(try store.fetch(compiled).map(\.id.key))
                fromEvaluator[form] = Set(try Evaluator(graph: graph).run(checked).map(\.key))
            }
        }
        return (fromStore, fromEvaluator)
    }
}
