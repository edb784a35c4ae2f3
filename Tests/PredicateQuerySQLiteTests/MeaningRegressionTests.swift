// What an independent reference, written from the README's "Meaning" alone
// (now Documentation/Language.md, "Meaning"), found
// pq getting wrong (issue 13), each held three ways: the store's SQL, the reference
// evaluator, and the answer worked out here in plain Swift from the objects.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

struct MeaningRegressionTests {
    /// The keys the store and the evaluator select for `text`, after checking that both
    /// compiled; the test fails if they differ.
    private func select(_ text: String, _ store: SQLiteStore, _ graph: ObjectGraph) throws -> [Int64] {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled, let checked = result.checked else {
            Issue.record("\(text) does not compile:\n\(DiagnosticRenderer().render(result.diagnostics, in: text))")
            return []
        }
        let fromStore = try store.fetch(compiled, environment: ExampleStore.environment).map(\.id.key)
        let fromEvaluator = try Evaluator(graph: graph, environment: ExampleStore.environment).run(checked).map(\.key)
        #expect(fromStore == fromEvaluator, "\(text): the store and the evaluator disagree")
        return fromStore
    }

    @Test func allSatisfyOfAConstantBodyAndItsNegationAreComplements() throws {
        let (store, graph) = try ExampleStore.make()
        let budgets = graph.objects(of: "Budget").map(\.key)
        let empty = graph.objects(of: "Budget").filter { (graph[$0]?.toMany["transactions"] ?? []).isEmpty }.map(\.key)
        #expect(!empty.isEmpty && empty.count < budgets.count, "the example data needs budgets with and without elements")
        for (body, holds) in [("true", true), ("TRUEPREDICATE", true), ("1 == 1", true), ("false", false), ("!true", false)] {
            let all = try select("Budget where transactions.allSatisfy { \(body) }", store, graph)
            let notAll = try select("Budget where !transactions.allSatisfy { \(body) }", store, graph)
            #expect(all == (holds ? budgets : empty), "allSatisfy { \(body) }")
            #expect(Set(all).union(notAll) == Set(budgets) && Set(all).isDisjoint(with: notAll), "!allSatisfy { \(body) }")
        }
    }

    /// A store of tasks with optional enums, big integers and doubles, and a project
    /// that may be missing (for collections reached through a nil to-one).
    private func taskStore() throws -> (SQLiteStore, ObjectGraph) {
        let schema = Schema(
            entities: [
                Entity(
                    "Task",
                    attributes: [
                        Attribute("urgency", .named("Urgency"), optional: true),
                        Attribute("category", .named("Category"), optional: true),
                        Attribute("big", .integer(bits: 64)), Attribute("ratio", .double),
                        Attribute("name", .string),
                    ],
                    relationships: [Relationship("project", to: "Project", inverse: "tasks")]),
                Entity(
                    "Project", attributes: [Attribute("title", .string)],
                    relationships: [Relationship("tasks", toMany: "Task", inverse: "project")]),
            ],
            enums: [.int("Urgency", ["low", "medium", "high"]), .string("Category", ["food", "trip"])])
        let store = try SQLiteStore.create(at: ":memory:", schema: schema)
        var graph = ObjectGraph(schema: schema)
        let busy = graph.insert("Project", ["title": .string("busy")])
        graph.insert("Project", ["title": .string("idle")])
        let rows: [(Value, Value, Int64, Double, String, Bool)] = [
            (.int(2), .string("trip"), 9_007_199_254_740_993, 9_007_199_254_740_992, "", true),
            (.null, .null, 9_007_199_254_740_992, 1.5, "a", false),
            (.int(0), .string("food"), -3, -3, "b", true),
            (.null, .string("trip"), 1, 9_007_199_254_740_994, "c", false),
        ]
        for (urgency, category, big, ratio, name, inProject) in rows {
            let task = graph.insert(
                "Task",
                ["urgency": urgency, "category": category, "big": .int(big), "ratio": .double(ratio), "name": .string(name)])
            if inProject { graph.link(task, "project", to: busy) }
        }
        try store.insert(graph)
        return (store, graph)
    }

    @Test func aModifierIsTheInsensitiveVersionOfThePlainTestInTheStore() throws {
        let schema = Schema(entities: [Entity("Note", attributes: [Attribute("memo", .string)])])
        let store = try SQLiteStore.create(at: ":memory:", schema: schema)
        var graph = ObjectGraph(schema: schema)
        for memo in ["naïve", "NAÏVE", "nai\u{308}ve", "Café", "café", "cafe\u{301}", "Straße", "ß"] {
            graph.insert("Note", ["memo": .string(memo)])
        }
        try store.insert(graph)
        #expect(try select("Note where memo beginswith[c] 'Nai'", store, graph) == [3])
        #expect(try select("Note where memo like 'Caf?'", store, graph) == [4])
        #expect(try select("Note where memo like[c] 'Caf?'", store, graph) == [4, 5, 6])
        #expect(try select("Note where memo endswith[c] '\u{301}'", store, graph) == [6])
        #expect(try select("Note where memo contains[c] 's'", store, graph) == [7])
        #expect(try select("Note where memo ==[c] 'CAFE\u{301}'", store, graph) == [4, 5, 6])
        #expect(try select("Note where memo ==[c] 'STRASSE'", store, graph) == [7])
    }

    @Test func dataIsEqualByteForByte() throws {
        let schema = Schema(entities: [Entity("Key", attributes: [Attribute("bytes", .data, optional: true)])])
        let store = try SQLiteStore.create(at: ":memory:", schema: schema)
        var graph = ObjectGraph(schema: schema)
        for bytes: Value in [.data(Data()), .data(Data([0])), .data(Data([1, 2, 3])), .null, .data(Data([1, 2, 3]))] {
            graph.insert("Key", ["bytes": bytes])
        }
        try store.insert(graph)
        let compiled = try #require(QueryCompiler.compile("bytes == $d", schema: schema, mapping: store.mapping).compiled)
        let checked = compiled.query
        for (bytes, expected) in [(Data([1, 2, 3]), [Int64(3), 5]), (Data(), [1]), (Data([0]), [2]), (Data([9]), [])] {
            let parameters: [String: ParameterValue] = ["d": .single(.data(bytes))]
            #expect(try store.fetch(compiled, parameters: parameters).map(\.id.key) == expected)
            #expect(try Evaluator(graph: graph, parameters: parameters).run(checked).map(\.key) == expected)
        }
        let unequal = try #require(QueryCompiler.compile("bytes != $d", schema: schema, mapping: store.mapping).compiled)
        #expect(try store.fetch(unequal, parameters: ["d": .single(.data(Data([0])))]).map(\.id.key) == [1, 3, 4, 5])
    }

    @Test func anEnumThroughCoalescingKeepsItsRawValues() throws {
        let (store, graph) = try taskStore()
        // urgency ?? .low: 2, 0 (low), 0, 0; category ?? .food: trip, food, food, trip.
        #expect(try select("Task where urgency ?? .low == 2", store, graph) == [1])
        #expect(try select("Task where 0 == urgency ?? .low", store, graph) == [2, 3, 4])
        #expect(try select("Task where category ?? .food == 'trip'", store, graph) == [1, 4])
        #expect(try select("Task where urgency ?? .high in [2, 0]", store, graph) == [1, 2, 3, 4])
    }

    @Test func theEmptyPatternMatchesTheEmptyString() throws {
        let (store, graph) = try taskStore()
        #expect(try select("Task where name matches ''", store, graph) == [1])
        #expect(try select("Task where !(name matches '')", store, graph) == [2, 3, 4])
        #expect(try select("Task where name matches '[c]'", store, graph) == [4])
    }

    @Test func intsAndDoublesCompareExactlyBeyondTwoToThe53() throws {
        let (store, graph) = try taskStore()
        // 9007199254740993 is not 9007199254740992.0, though Double(…993) is.
        #expect(try select("Task where big == 9007199254740992.0", store, graph) == [2])
        #expect(try select("Task where big > 9007199254740992.0", store, graph) == [1])
        #expect(try select("Task where big in [9007199254740992.0]", store, graph) == [2])
        #expect(try select("Task where big in 9007199254740992.0...9007199254740992.5", store, graph) == [2])
        #expect(try select("Task where ratio == 9007199254740993", store, graph) == [])
        #expect(try select("Task where ratio < 9007199254740993", store, graph) == [1, 2, 3])
        #expect(try select("Task where big == ratio", store, graph) == [3])
        #expect(try select("Task where big < ratio", store, graph) == [4])
    }

    @Test func aCollectionThroughANilToOneIsNilNotEmpty() throws {
        let (store, graph) = try taskStore()
        let withProject: [Int64] = [1, 3]
        let without: [Int64] = [2, 4]
        // As `$0.project?.tasks.count` is nil in Swift when project is nil.
        #expect(try select("Task where project.tasks.@count == 0", store, graph) == [])
        #expect(try select("Task where project.tasks.@count == nil", store, graph) == without)
        #expect(try select("Task where (project.tasks.@count ?? 0) == 0", store, graph) == without)
        #expect(try select("Task where project.tasks.@count == 2", store, graph) == withProject)
        #expect(try select("Task where project.tasks.@sum.big == nil", store, graph) == without)
        #expect(try select("Task where all project.tasks.big > -10", store, graph) == withProject)
        #expect(try select("Task where !(all project.tasks.big > -10)", store, graph) == without)
        #expect(try select("Task where project.tasks.allSatisfy { true }", store, graph) == withProject)
        #expect(try select("Task where any project.tasks.big > -10", store, graph) == withProject)
        #expect(try select("Task where none project.tasks.big > -10", store, graph) == without)
    }

    /// Issue 27: `isEmpty` of a collection reached through a nil to-one was true (the
    /// independent reference's last disagreement), though `@count == 0` is false there
    /// and `$0.project?.tasks.isEmpty` is nil in Swift, not true.
    @Test func isEmptyThroughANilToOneIsFalseAsCountEqualsZeroIs() throws {
        let (store, graph) = try taskStore()
        let withProject: [Int64] = [1, 3]
        let all: [Int64] = [1, 2, 3, 4]
        #expect(try select("Task where project.tasks.isEmpty", store, graph) == [])
        #expect(try select("Task where project?.tasks.isEmpty", store, graph) == [])
        #expect(try select("Task where !project.tasks.isEmpty", store, graph) == all)
        #expect(try select("Task where project.tasks.filter { $0.big < -100 }.isEmpty", store, graph) == withProject)
        #expect(try select("Task where !project.tasks.filter { $0.big < -100 }.isEmpty", store, graph) == [2, 4])
        #expect(try select("Task where project.tasks.filter { $0.big > 100 }.isEmpty", store, graph) == [])
        #expect(try select("Task where !(project.tasks.isEmpty || name == 'a')", store, graph) == [1, 3, 4])
        // As a value it is nil, as in Swift: `?? true` takes the default, `== false` is false.
        let without: [Int64] = [2, 4]
        #expect(try select("Task where project.tasks.isEmpty ?? true", store, graph) == without)
        #expect(try select("Task where (project.tasks.isEmpty) == false", store, graph) == withProject)
        #expect(try select("Task where (project.tasks.isEmpty) != false", store, graph) == without)
        #expect(try select("Task where project.tasks.filter { $0.big < -100 }.isEmpty ?? false", store, graph) == withProject)
        #expect(try select("Task where project.tasks.contains { $0.big > 0 } ?? true", store, graph) == all)
        #expect(try select("Task where project.tasks.allSatisfy { $0.big > 0 } ?? true", store, graph) == without)
        // The same objects as the count's test, each way round.
        for (isEmpty, count) in [
            ("project.tasks.isEmpty", "project.tasks.@count == 0"),
            ("!project.tasks.isEmpty", "project.tasks.@count != 0"),
            ("project.tasks.filter { $0.big < -100 }.isEmpty", "project.tasks.filter { $0.big < -100 }.@count == 0"),
        ] {
            #expect(try select("Task where \(isEmpty)", store, graph) == select("Task where \(count)", store, graph))
        }
    }

    /// The issue's own examples on the example data, where some transactions have no
    /// budget and some snippets no folder; and the typed builder's spelling of it.
    @Test func isEmptyThroughANilToOneOnTheExampleModels() throws {
        let (store, graph) = try ExampleStore.make()
        for (entity, toOne, toMany) in [("Transaction", "budget", "transactions"), ("Snippet", "folder", "snippets")] {
            let objects = graph.objects(of: entity)
            let owned = objects.filter { graph[$0]?.toOne[toOne] != nil }.map(\.key)
            #expect(owned.count < objects.count && !owned.isEmpty, "the example data needs \(entity) with and without \(toOne)")
            // The owner holds at least the object itself, so no owned object's collection is empty.
            #expect(try select("\(entity) where \(toOne).\(toMany).isEmpty", store, graph) == [])
            #expect(try select("\(entity) where !\(toOne).\(toMany).isEmpty", store, graph) == objects.map(\.key))
        }
        let query = Transaction.filter { $0.budget?.transactions.isEmpty == true }
        #expect(query.problems.isEmpty)
        #expect(query.text == "Transaction where budget?.transactions.isEmpty")
        let compiled = try #require(query.compile(schema: store.schema, mapping: store.mapping).compiled)
        #expect(try store.fetch(compiled).isEmpty)
        let negated = Transaction.filter { $0.budget?.transactions.isEmpty != true }
        let compiledNegation = try #require(negated.compile(schema: store.schema, mapping: store.mapping).compiled)
        #expect(try store.fetch(compiledNegation).count == graph.objects(of: "Transaction").count)
        let comparedWithFalse = Transaction.filter { $0.budget?.transactions.isEmpty == false }
        #expect(comparedWithFalse.problems.count == 1)
    }

    /// A nil member of a list parameter matches nothing, in the store as in the
    /// evaluator: bound as NULL it made `x IN (…, NULL)` NULL and `!(x in $list)` false
    /// (found by the fuzzer in CI: `!SELF in $id` with `$id` = [nil, nil]).
    @Test func aNilMemberOfAListParameterMatchesNothingAndItsNegationEverythingElse() throws {
        let (store, graph) = try ExampleStore.make()
        let budgets = graph.objects(of: "Budget")
        let named = try #require(budgets.first.flatMap { graph[$0]?.values["name"] })
        let namedKeys = budgets.filter { graph[$0]?.values["name"] == named }.map(\.key)
        let cases: [(query: String, list: [Value], expected: [Int64])] = [
            ("Budget where !(SELF in $list)", [.null, .null], budgets.map(\.key)),
            ("Budget where SELF in $list", [.null], []),
            ("Budget where name in $list", [.null, named], namedKeys),
            ("Budget where !(name in $list)", [.null, named], budgets.map(\.key).filter { !namedKeys.contains($0) }),
            ("Budget where !(name in[c] $list)", [.null], budgets.map(\.key)),
        ]
        for (text, list, expected) in cases {
            let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
            let compiled = try #require(result.compiled, "\(text)")
            let checked = try #require(result.checked)
            let parameters: [String: ParameterValue] = ["list": .list(list)]
            let fromStore = try store.fetch(compiled, parameters: parameters, environment: ExampleStore.environment)
            let fromEvaluator = try Evaluator(graph: graph, parameters: parameters, environment: ExampleStore.environment)
                .run(checked)
            #expect(fromStore.map(\.id.key) == expected, "\(text) with \(list) in the store")
            #expect(fromEvaluator.map(\.key) == expected, "\(text) with \(list) in the evaluator")
        }
    }
}
