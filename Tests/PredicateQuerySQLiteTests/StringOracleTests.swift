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
import PredicateQueryTestSupport
import Testing

struct StringOracleTests {
    static let seeds = TestSeeds.with([11, 12])
    /// Rows per seed; each is tested by 6 operators × 4 modifiers.
    static let rowsPerSeed = 450
    static let modifiers: [StringOptions] = [
        [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
    ]

    enum Operator: String, CaseIterable {
        case equal = "==", contains, beginsWith = "beginswith", endsWith = "endswith", like, matches

        /// The column of `Pair` holding the right-hand side for this operator.
        var column: String {
            switch self {
            case .equal: "other"
            case .contains, .beginsWith, .endsWith: "needle"
            case .like: "pattern"
            case .matches: "regex"
            }
        }
    }

    struct Row {
        var text: String
        var other: String
        var needle: String
        var pattern: String
        var regex: String
    }

    static let schema = Schema(entities: [
        Entity(
            "Pair",
            attributes: ["text", "other", "needle", "pattern", "regex"].map { Attribute($0, .string) })
    ])

    /// What Foundation answers for one case, and why pq may answer otherwise.
    static func oracle(_ op: Operator, _ modifiers: StringOptions, _ row: Row) -> Bool {
        typealias F = FoundationStringOracle
        switch op {
        case .equal: return F.equal(row.text, row.other, modifiers)
        case .contains: return F.find(row.text, row.needle, modifiers, [])
        case .beginsWith: return F.find(row.text, row.needle, modifiers, [.anchored])
        case .endsWith: return F.find(row.text, row.needle, modifiers, [.anchored, .backwards])
        case .like: return F.like(row.text, row.pattern, modifiers)
        case .matches: return F.matches(row.text, row.regex, modifiers)
        }
    }

    /// The documented reasons pq may answer otherwise than Foundation, each with a
    /// check that it is the reason: the oracle, asked about inputs changed the way
    /// the reason says, must then give pq's answer.
    enum Difference: String, CaseIterable {
        /// An empty string (or, under `[d]`, one of combining marks only) occurs in
        /// every string for pq, as in Swift's `"abc".contains("")`; Foundation finds it nowhere.
        case emptyNeedle = "the empty needle occurs everywhere"
        /// pq's `[d]` removes every nonspacing mark; Foundation's folding keeps one
        /// that has no base character before it.
        case loneMark = "[d] removes a combining mark with no base"
        /// Foundation's comparison and its own folding disagree (`ᾳ` against `ΑΙ`
        /// under `[c]`); pq follows the folding.
        case compareAgainstFolding = "Foundation's compare disagrees with its folding"
        /// In `like[d]`, `?` may take a combining mark that `[d]` folds away, so a
        /// pattern that matches without `[d]` matches with it.
        case wildcardTakesMark = "like[d] keeps the match without [d] (? takes a mark)"
        /// Foundation's anchored backwards search (`.anchored, .backwards`) with a
        /// case folding that expands (`ß`, `ẞ`, `ﬁ` → two letters) can report a suffix
        /// that is not one; its own folding, compared from the end, agrees with pq.
        case backwardsExpansion = "Foundation's backwards search with an expanding fold"
        /// Foundation's anchored search (`.anchored`) with a case folding that expands
        /// can report a prefix that is not one (`Sςß` begins with `ß` under `[c]`, as
        /// if `Sς` were `ss`); its own folding, compared from the start, agrees with pq.
        case anchoredExpansion = "Foundation's anchored search with an expanding fold"
    }

    static func explanation(_ op: Operator, _ modifiers: StringOptions, _ row: Row, pq: Bool) -> Difference? {
        let rightSide: String
        switch op {
        case .equal: rightSide = row.other
        case .contains, .beginsWith, .endsWith: rightSide = row.needle
        case .like: rightSide = row.pattern
        case .matches: rightSide = row.regex
        }
        let diacritics = modifiers.contains(.diacriticInsensitive)
        if pq, [.contains, .beginsWith, .endsWith].contains(op) {
            let folded = rightSide.folding(options: FoundationStringOracle.options(modifiers), locale: nil)
            if (diacritics ? FoundationStringOracle.withoutMarks(folded) : folded).isEmpty { return .emptyNeedle }
        }
        if diacritics {
            var stripped = row
            stripped.text = FoundationStringOracle.withoutMarks(row.text)
            if op != .matches {
                stripped.other = FoundationStringOracle.withoutMarks(row.other)
                stripped.needle = FoundationStringOracle.withoutMarks(row.needle)
                stripped.pattern = FoundationStringOracle.withoutMarks(row.pattern)
            }
            if oracle(op, modifiers, stripped) == pq { return .loneMark }
        }
        if pq, op == .like, diacritics, oracle(op, modifiers.subtracting(.diacriticInsensitive), row) {
            return .wildcardTakesMark
        }
        if op == .endsWith, !modifiers.isEmpty,
            FoundationStringOracle.foldedSuffix(row.text, row.needle, modifiers) == pq
        {
            return .backwardsExpansion
        }
        if op == .beginsWith, !pq, modifiers.contains(.caseInsensitive),
            FoundationStringOracle.hasExpandingFold(row.text + row.needle),
            !FoundationStringOracle.foldedPrefix(row.text, row.needle, modifiers)
        {
            return .anchoredExpansion
        }
        if op == .equal, FoundationStringOracle.foldedEqual(row.text, row.other, modifiers) == pq {
            return .compareAgainstFolding
        }
        return nil
    }

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
            let rows = Self.rows(seed: seed)
            let (fromStore, fromEvaluator) = try Self.run(rows)
            for op in Operator.allCases {
                var plain: Set<Int64> = []
                for modifiers in Self.modifiers {
                    let form = "\(op.rawValue)\(modifiers.modifier)"
                    let sqlKeys = fromStore[form] ?? []
                    #expect(sqlKeys == fromEvaluator[form], "\(form): the store and the evaluator disagree")
                    if modifiers.isEmpty { plain = sqlKeys }
                    for lost in plain.subtracting(sqlKeys) where lostByModifier.count < 10 {
                        lostByModifier.append("\(form) loses \(Self.describe(rows[Int(lost) - 1]))")
                    }
                    for (index, row) in rows.enumerated() {
                        let pq = sqlKeys.contains(Int64(index + 1))
                        let foundation = Self.oracle(op, modifiers, row)
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
                        if let reason = Self.explanation(op, modifiers, row, pq: pq) {
                            explained[reason, default: 0] += 1
                        } else if unexplained.count < 20 {
                            unexplained.append("\(form): pq \(pq), Foundation \(foundation) for \(Self.describe(row))")
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
        #expect(byForm.count == Operator.allCases.count * Self.modifiers.count)
        #expect(
            unexplained.isEmpty,
            "differences from Foundation that no documented reason explains:\n\(unexplained.joined(separator: "\n"))")
        #expect(lostByModifier.isEmpty, "a modifier lost a plain match:\n\(lostByModifier.joined(separator: "\n"))")
    }

    /// The rows of one seed: a text and, for each operator, its right-hand side.
    static func rows(seed: UInt64) -> [Row] {
        var hard = HardStrings(random: SplitMix64(seed: seed))
        return (0..<Self.rowsPerSeed).map { _ in
            let text = hard.string()
            return Row(
                text: text, other: hard.chance(70) ? hard.disguise(text) : hard.string(),
                needle: hard.needle(in: text), pattern: hard.likePattern(for: text), regex: hard.regex(for: text))
        }
    }

    /// The keys each form selects, by the store's SQL and by the evaluator.
    static func run(_ rows: [Row]) throws -> (store: [String: Set<Int64>], evaluator: [String: Set<Int64>]) {
        var graph = ObjectGraph(schema: Self.schema)
        for row in rows {
            graph.insert(
                "Pair",
                [
                    "text": .string(row.text), "other": .string(row.other), "needle": .string(row.needle),
                    "pattern": .string(row.pattern), "regex": .string(row.regex),
                ])
        }
        let store = try SQLiteStore.create(at: ":memory:", schema: Self.schema)
        try store.insert(graph)
        var fromStore: [String: Set<Int64>] = [:]
        var fromEvaluator: [String: Set<Int64>] = [:]
        for op in Operator.allCases {
            for modifiers in Self.modifiers {
                let form = "\(op.rawValue)\(modifiers.modifier)"
                let query = "Pair where text \(form) \(op.column)"
                let result = QueryCompiler.compile(query, schema: Self.schema, mapping: store.mapping)
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

    static func describe(_ row: Row) -> String {
        func show(_ text: String) -> String {
            "'"
                + text.unicodeScalars.map {
                    $0.value < 0x80 && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}"
                }.joined() + "'"
        }
        return
            "text \(show(row.text)) other \(show(row.other)) needle \(show(row.needle)) pattern \(show(row.pattern)) regex \(show(row.regex))"
    }
}
