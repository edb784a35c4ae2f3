// PostgreSQL's string tests held to pq's meaning and to Foundation's string API on
// a live server: every operator with every modifier over the hard strings of
// `StringOracleTests`, each right-hand side given as a parameter (as a search box
// gives it), so the pattern PostgreSQL matches with is made when it is bound.
// PostgreSQL's answer must be pq's (its string functions, which the evaluator and
// SQLite share); where it differs from Foundation, the difference must be one
// `StringOracleTests` documents. Forms PostgreSQL refuses are counted, not dropped.

import Foundation
import PredicateQuery
import PredicateQueryPostgres
import PredicateQueryStore
import PredicateQueryStoreTestSupport
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresStringOracleTests {
    typealias Operator = StringOracle.Operator

    static let schema = Schema(entities: [
        Entity(
            "Pair", attributes: [Attribute("index", .integer(bits: 64)), Attribute("text", .string), Attribute("other", .string)])
    ])

    /// pq's answer, from the functions the evaluator and SQLite call.
    static func pq(_ op: Operator, _ modifiers: StringOptions, _ text: String, _ rhs: String) throws -> Bool {
        switch op {
        case .equal:
            return StringFunctions.fold(text, modifiers).unicodeScalars.elementsEqual(
                StringFunctions.fold(rhs, modifiers).unicodeScalars)
        case .contains: return StringFunctions.contains(text, rhs, modifiers)
        case .beginsWith: return StringFunctions.hasPrefix(text, rhs, modifiers)
        case .endsWith: return StringFunctions.hasSuffix(text, rhs, modifiers)
        case .like: return StringFunctions.like(text, rhs, modifiers)
        case .matches: return try StringFunctions.matches(text, rhs, modifiers)
        }
    }

    static func rightSide(_ op: Operator, _ row: StringOracle.Row) -> String {
        switch op {
        case .equal: row.other
        case .contains, .beginsWith, .endsWith: row.needle
        case .like: row.pattern
        case .matches: row.regex
        }
    }

    @Test("PostgreSQL's string tests give pq's answers, and differ from Foundation only as documented")
    func postgresStringTestsAgreeWithPQAndFoundation() throws {
        // The first fixed seed, and a fresh one (`PQ_SEED`) when given.
        let rows = TestSeeds.with([11]).flatMap { StringOracle.rows(seed: $0) }
        _ = try PostgresTestServer.with { server in
            try PostgresStore.run("CREATE SCHEMA oracle", at: server.conninfo())
            let store = try PostgresStore.create(server.conninfo(searchPath: "oracle"), schema: Self.schema)
            var graph = ObjectGraph(schema: Self.schema)
            for (index, row) in rows.enumerated() {
                graph.insert("Pair", ["index": .int(Int64(index)), "text": .string(row.text)])
            }
            try store.insert(graph)
            var cases = 0
            var agreeWithFoundation = 0
            var explained: [StringOracle.Difference: Int] = [:]
            var refused: [String: Int] = [:]
            var wrong: [String] = []
            var unexplained: [String] = []
            for op in Operator.allCases {
                for modifiers in StringOracle.modifiers {
                    let form = "\(op.rawValue)\(modifiers.modifier)"
                    let result = QueryCompiler.compile(
                        "Pair where index == $i && text \(form) $rhs", schema: Self.schema, mapping: store.mapping)
                    guard let compiled = result.compiled else {
                        let refusal = result.diagnostics.first { $0.code == .unsupportedByDatabase }
                        #expect(refusal != nil, "\(form) neither compiles nor is refused: \(result.diagnostics)")
                        refused[form, default: 0] += rows.count
                        continue
                    }
                    for (index, row) in rows.enumerated() {
                        let rhs = Self.rightSide(op, row)
                        let parameters: [String: ParameterValue] = [
                            "i": .single(.int(Int64(index))), "rhs": .single(.string(rhs)),
                        ]
                        let fetched: [Row]
                        do {
                            fetched = try store.fetch(compiled, parameters: parameters)
                        } catch  where "\(error)".contains("PostgreSQL cannot match") {
                            refused["\(form) with a pattern ARE does not share (refused when bound)", default: 0] += 1
                            continue
                        }
                        let onPostgres = !fetched.isEmpty
                        cases += 1
                        let expected = try Self.pq(op, modifiers, row.text, rhs)
                        if onPostgres != expected, wrong.count < 20 {
                            wrong.append(
                                "\(form): PostgreSQL \(onPostgres), pq \(expected) for \(StringOracle.describe(row))")
                        }
                        let foundation = StringOracle.oracle(op, modifiers, row)
                        if onPostgres == foundation {
                            agreeWithFoundation += 1
                        } else if let reason = StringOracle.explanation(op, modifiers, row, pq: onPostgres) {
                            explained[reason, default: 0] += 1
                        } else if !(modifiers.isEmpty && op == .equal), unexplained.count < 20 {
                            // (Plain `==` compares scalars; Swift's `==` canonical equivalence:
                            // `StringOracleTests` checks that difference.)
                            unexplained.append(
                                "\(form): PostgreSQL \(onPostgres), Foundation \(foundation) for \(StringOracle.describe(row))"
                            )
                        }
                    }
                }
            }
            print("PostgreSQL string oracle: \(cases) cases on a live server, \(agreeWithFoundation) as Foundation answers")
            for reason in StringOracle.Difference.allCases {
                print("  differs as documented, \(reason.rawValue): \(explained[reason] ?? 0)")
            }
            for (form, count) in refused.sorted(by: { $0.key < $1.key }) { print("  refused: \(count) × \(form)") }
            #expect(cases >= 8_000, "too few cases answered by PostgreSQL: \(cases)")
            #expect(wrong.isEmpty, "PostgreSQL differs from pq:\n\(wrong.joined(separator: "\n"))")
            #expect(unexplained.isEmpty, "undocumented differences from Foundation:\n\(unexplained.joined(separator: "\n"))")
        }
    }

    /// Patterns whose translation could go wrong: ICU's `.` and line terminators,
    /// negated brackets, `$`, lazy quantifiers, empty branches, supplementary scalars.
    static let patterns = [
        ".", ".*", "a.b", "[^a]", "[^a]*", "a$", "a|", "(|a)+", "a*?b", "x{2,3}", "x{0,}", "[-a]", "[a-]", "a]",
        #"\Q.*\E"#, #"\x{1F600}+"#, "[😀-😂]", "[a-cx-z]+", #"\u00E9"#, "(?:ab|a)(?:bc|c)", "^a", #"\Aa\z"#,
        #"[\t\n]"#, "e\u{301}", "é", ".{2}", "ﬁ", "(?<n>ab)+", "",
    ]
    static let subjects = [
        "", "a", "b", "\n", "\r", "\r\n", "a\n", "\u{2028}", "\u{85}", "\u{B}", "\u{C}", "a\u{2028}b", "aab", "ab", "abc",
        "x", "xx", "xxx", "xxxx", "-", "]", "a]", ".*", "😀😀", "😁", "abz", "é", "e\u{301}", "\t", "😀a", "ﬁ", "fi",
        "abab", "\u{1C}",
    ]

    @Test("translated regular expressions match on PostgreSQL exactly what ICU matches")
    func translatedRegularExpressionsMatchAsICUDoes() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStore.run("CREATE SCHEMA regex", at: server.conninfo())
            let store = try PostgresStore.create(server.conninfo(searchPath: "regex"), schema: Self.schema)
            var graph = ObjectGraph(schema: Self.schema)
            for (index, subject) in Self.subjects.enumerated() {
                graph.insert("Pair", ["index": .int(Int64(index)), "text": .string(subject)])
            }
            try store.insert(graph)
            let compiled = try #require(
                QueryCompiler.compile("Pair where text matches $r sort by index", schema: Self.schema, mapping: store.mapping)
                    .compiled)
            var compared = 0
            for pattern in Self.patterns {
                let rows = try store.fetch(compiled, parameters: ["r": .single(.string(pattern))])
                let got = Set(
                    rows.compactMap { row -> Int? in
                        guard case .int(let index)? = row.values["index"] else { return nil }
                        return Int(index)
                    })
                let want = Set(try Self.subjects.indices.filter { try StringFunctions.matches(Self.subjects[$0], pattern, []) })
                compared += Self.subjects.count
                #expect(got == want, "'\(pattern)': PostgreSQL \(got.sorted()), ICU \(want.sorted())")
            }
            print(
                "translated regular expressions: \(Self.patterns.count) patterns × \(Self.subjects.count) strings agree with ICU")
            #expect(compared > 500)
        }
    }

    @Test("a value PostgreSQL cannot treat as pq does fails clearly, never answers otherwise")
    func valuesPostgreSQLCannotTreatExactlyFailClearly() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStore.run("CREATE SCHEMA unsettled", at: server.conninfo())
            let store = try PostgresStore.create(server.conninfo(searchPath: "unsettled"), schema: Self.schema)
            var graph = ObjectGraph(schema: Self.schema)
            // U+1AC1 is a combining mark of Unicode 14: PostgreSQL 13's tables do not know it.
            graph.insert("Pair", ["index": .int(0), "text": .string("a\u{1AC1}\u{301}")])
            graph.insert("Pair", ["index": .int(1), "text": .string("plain")])
            try store.insert(graph)
            let folded = try #require(store.compile("Pair where text contains[c] 'zz'").compiled)
            #expect {
                try store.fetch(folded)
            } throws: { error in
                "\(error)".contains("newer than Unicode 13") && "\(error)".hasSuffix("a\u{1AC1}\u{301}")
            }
            // Without the character, the same test answers.
            let other = try #require(store.compile("Pair where index == 1 && text contains[c] 'LAI'").compiled)
            #expect(try store.fetch(other).count == 1)
            // A pattern given as a parameter that ARE cannot match as ICU does: the caller's mistake.
            let matches = try #require(store.compile("Pair where text matches $r").compiled)
            #expect {
                try store.fetch(matches, parameters: ["r": .single(.string("\\w+"))])
            } throws: { error in
                guard let error = error as? StoreError else { return false }
                return error.kind == .invalidParameter && error.message.contains("'\\w'")
            }
        }
    }

    @Test("folded values on PostgreSQL sort and compare as pq's do")
    func foldedValuesSortAndCompareAsPQs() throws {
        var texts = (ValuePools.strings + ValuePools.hardStrings).map { ($0, $0.uppercased()) }
        texts += StringOracle.rows(seed: 12).map { ($0.text, $0.other) }
        texts = texts.filter { !$0.0.unicodeScalars.contains("\u{0}") && !$0.1.unicodeScalars.contains("\u{0}") }
        var graph = ObjectGraph(schema: Self.schema)
        for (index, (text, other)) in texts.enumerated() {
            graph.insert("Pair", ["index": .int(Int64(index)), "text": .string(text), "other": .string(other)])
        }
        _ = try PostgresTestServer.with { server in
            try PostgresStore.run("CREATE SCHEMA folded", at: server.conninfo())
            let store = try PostgresStore.create(server.conninfo(searchPath: "folded"), schema: Self.schema)
            try store.insert(graph)
            for modifiers in StringOracle.modifiers.dropFirst() {
                for query in [
                    "Pair sort by text\(modifiers.modifier), index", "Pair where text ==\(modifiers.modifier) other",
                    "Pair where text <\(modifiers.modifier) other", "Pair sort by text\(modifiers.modifier) desc, index desc",
                ] {
                    let result = store.compile(query)
                    let compiled = try #require(result.compiled, "\(query): \(result.diagnostics)")
                    let checked = try #require(result.checked)
                    let want = try Evaluator(graph: graph).run(checked).map(\.key)
                    let got = try store.fetch(compiled).map(\.id.key)
                    #expect(got == want, "\(query): PostgreSQL and pq differ")
                    #expect(want.count > 20, "\(query) selects too little to tell")
                }
            }
            print("folded values: \(texts.count) strings sorted and compared with [c], [d] and [cd] as pq does")
        }
    }
}
