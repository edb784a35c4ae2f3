// `IN[c]`, `IN[d]` and `IN[cd]` (issue 27, item 8), in the text language and in
// format strings: each selects, in the store, what the evaluator selects, what one
// `==[c]` per value selects, and the objects worked out here by hand; every value
// is a bound parameter, never SQL text.

import Foundation
import PredicateQuery
import PredicateQuerySQLite
import Testing

struct ModifiedMembershipTests {
    /// Notes 1…6: "Café", "cafe", "CAFE", "rent", nil, "CAFÉ".
    private func notes() throws -> (SQLiteStore, ObjectGraph) {
        let schema = Schema(entities: [Entity("Note", attributes: [Attribute("memo", .string, optional: true)])])
        let store = try SQLiteStore.create(at: ":memory:", schema: schema)
        var graph = ObjectGraph(schema: schema)
        for memo in ["Café", "cafe", "CAFE", "rent", nil, "CAFÉ"] {
            graph.insert("Note", memo.map { ["memo": .string($0)] } ?? [:])
        }
        try store.insert(graph)
        return (store, graph)
    }

    /// The keys the store selects, after checking the evaluator selects the same and
    /// that no value of `parameters` (or literal) is in the SQL.
    private func select(
        _ text: String, _ store: SQLiteStore, _ graph: ObjectGraph, parameters: [String: ParameterValue] = [:]
    ) throws -> [Int64] {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled, let checked = result.checked else {
            Issue.record("\(text) does not compile:\n\(DiagnosticRenderer().render(result.diagnostics, in: text))")
            return []
        }
        for value in ["cafe", "CAFE", "rent", "RENT"] {
            #expect(!compiled.sql.contains(value), "\(text): '\(value)' is in the SQL, not bound:\n\(compiled.sql)")
        }
        let fromStore = try store.fetch(compiled, parameters: parameters).map(\.id.key)
        let fromEvaluator = try Evaluator(graph: graph, parameters: parameters).run(checked).map(\.key)
        #expect(fromStore == fromEvaluator, "\(text): the store and the evaluator disagree")
        return fromStore
    }

    @Test func eachModifierSelectsWhatItsEqualityDoes() throws {
        let (store, graph) = try notes()
        let cases: [(String, [Int64])] = [
            ("memo in[c] {'cafe'}", [2, 3]),
            ("memo IN[d] {'cafe'}", [2]),
            ("memo in[cd] {'cafe', 'RENT'}", [1, 2, 3, 4, 6]),
            ("memo IN[CD] ['CAFE']", [1, 2, 3, 6]),
            ("memo in[c] {'rent', nil}", [4, 5]),
            ("memo in [c] {'RENT'}", [4]),
            ("memo in[cd] {}", []),
            ("!(memo in[c] {'cafe'})", [1, 4, 5, 6]),
            ("memo in[n] {'cafe'}", [2]),
        ]
        for (predicate, expected) in cases {
            #expect(try select("Note where \(predicate)", store, graph) == expected, "\(predicate)")
        }
        #expect(
            try select("Note where memo in[cd] {'cafe', 'RENT'}", store, graph)
                == select("Note where memo ==[cd] 'cafe' || memo ==[cd] 'RENT'", store, graph))
    }

    @Test func aFormatStringsListIsBoundValueByValue() throws {
        let (store, graph) = try notes()
        let cases: [(String, [FormatArgument], [Int64])] = [
            ("%K IN[c] %@", ["memo", .list([.string("cafe"), .string("RENT")])], [2, 3, 4]),
            ("memo IN[cd] %@", [.text("cafe, rent")], [1, 2, 3, 4, 6]),
            ("memo in[d] %@", [.list([.string("cafe"), .null])], [2, 5]),
            ("memo IN[c] %@", [.list([])], []),
        ]
        for (format, arguments, expected) in cases {
            let expansion = PredicateFormat.expand(format, arguments)
            #expect(expansion.diagnostics.isEmpty, "\(format): \(expansion.diagnostics.map(\.message))")
            let result = QueryCompiler.compile("Note where " + expansion.text, schema: store.schema, mapping: store.mapping)
            let checked = try #require(result.checked, "\(format): \(result.diagnostics.map(\.message))")
            let (values, problems) = expansion.parameterValues(for: checked.parameters)
            #expect(problems.isEmpty)
            #expect(
                try select("Note where " + expansion.text, store, graph, parameters: values) == expected,
                "\(format) → \(expansion.text)")
        }
    }

    @Test func aListParameterIsBoundFoldedAndComparedFolded() throws {
        let (store, graph) = try notes()
        let cases: [(String, [Value], [Int64])] = [
            ("memo in[c] $names", [.string("cafe"), .string("RENT")], [2, 3, 4]),
            ("memo IN[d] $names", [.string("cafe")], [2]),
            ("memo in[cd] $names", [.string("CAFE")], [1, 2, 3, 6]),
            ("!(memo in[c] $names)", [.string("cafe")], [1, 4, 5, 6]),
            ("memo in[c] $names", [], []),
        ]
        for (predicate, names, expected) in cases {
            #expect(
                try select("Note where \(predicate)", store, graph, parameters: ["names": .list(names)]) == expected,
                "\(predicate) with \(names)")
        }
        // The same list, as literals: the same notes.
        #expect(
            try select("Note where memo in[cd] $names", store, graph, parameters: ["names": .list([.string("cafe"), .string("RENT")])])
                == select("Note where memo in[cd] {'cafe', 'RENT'}", store, graph))
        let text = "Note where memo in[c] $names"
        #expect(Printer.print(try #require(Parser.parse(text).query)) == text)
        let refused = QueryCompiler.compile("Note where memo in[c] $names", schema: store.schema, mapping: store.mapping)
        #expect(refused.compiled != nil)
        let numbers = Schema(entities: [Entity("Item", attributes: [Attribute("count", .integer(bits: 64))])])
        let wrong = QueryCompiler.compile("Item where count in[c] $xs", schema: numbers, mapping: .make(for: numbers, layout: .plain))
        #expect(wrong.diagnostics.map(\.code) == [.modifierNotApplicable])
    }

    @Test func onlyAListOrAListParameterTakesAModifier() {
        for text in ["memo IN[c] 'a'...'c'", "memo in[d] name"] {
            let diagnostics = Parser.parse(text).diagnostics
            #expect(diagnostics.map(\.code) == [.modifiedMembership], "\(text)")
            #expect(diagnostics.first?.message.hasSuffix("needs a list of values or a list parameter on its right") == true)
        }
        // A SUBQUERY variable is the grammar's PARAMETER: it parses, and the checker refuses it as no list.
        let variable = "Note where SUBQUERY(tags, $t, $t.name in[c] $t).@count > 0"
        #expect(Parser.parse(variable).diagnostics.isEmpty)
        let tagged = Schema(entities: [
            Entity("Note", relationships: [Relationship("tags", toMany: "Tag", inverse: "note")]),
            Entity("Tag", attributes: [Attribute("name", .string)], relationships: [Relationship("note", to: "Note", inverse: "tags")]),
        ])
        let checked = QueryCompiler.compile(variable, schema: tagged, mapping: .make(for: tagged, layout: .plain))
        #expect(checked.diagnostics.map(\.code) == [.invalidMembership], "\(checked.diagnostics)")
        // Without an operand after it, `[c]` after `in` is still a one-element list.
        let list = Parser.parse("memo in [c]")
        #expect(list.query != nil && list.diagnostics.isEmpty)
        // A format string's single value is not a list: it stays one list parameter.
        let single = PredicateFormat.expand("memo IN[c] %@", ["cafe"])
        #expect(!single.text.contains("{"), "\(single.text)")
        #expect(Parser.parse(single.text).diagnostics.isEmpty, "\(single.text)")
    }
}
