// `||` chains of equalities on one path are lowered as one `IN` list (issue 27):
// the same rows as the hand-written `in [...]` query and as the evaluator, for a
// chain of 5,000, for chains mixed with other tests, with nil and with parameters,
// negated, and through a to-one. Where membership would not mean what `==` means
// (a parameter that may be nil against a path that may be nil, `[c]`), the chain
// stays a disjunction, and the rows still agree.

import Foundation
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

@testable import PredicateQuery

struct EqualityChainTests {
    /// The store's rows for `text` (also counted), after checking that they are the evaluator's.
    private func rows(
        _ text: String, _ store: SQLiteStore, _ graph: ObjectGraph, parameters: [String: ParameterValue] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (sql: String, keys: [Int64]) {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled, let checked = result.checked else {
            Issue.record(
                "\(text.prefix(200)) does not compile:\n\(DiagnosticRenderer().render(result.diagnostics, in: text))",
                sourceLocation: sourceLocation)
            return ("", [])
        }
        let environment = ExampleStore.environment
        let fromStore = try store.fetch(compiled, parameters: parameters, environment: environment).map(\.id.key)
        let fromEvaluator = try Evaluator(graph: graph, parameters: parameters, environment: environment).run(checked)
            .map(\.key)
        #expect(
            fromStore == fromEvaluator, "\(text.prefix(200)): the store and the evaluator disagree",
            sourceLocation: sourceLocation)
        let counting = try #require(
            QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping, count: true).compiled)
        let count = try store.count(counting, parameters: parameters, environment: environment)
        #expect(count == Int64(fromStore.count), "\(text.prefix(200)): count", sourceLocation: sourceLocation)
        return (compiled.sql, fromStore)
    }

    /// The SQL `text` lowers to for PostgreSQL (no server needed).
    private func postgreSQL(_ text: String, _ schema: Schema) throws -> String {
        var mapping = StoreMapping.make(for: schema, layout: .plain)
        mapping.database = .postgreSQL
        return try #require(QueryCompiler.compile(text, schema: schema, mapping: mapping).compiled).sql
    }

    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func aChainOfFiveThousandEqualitiesIsTheInListQuery() throws {
        let graph = ExampleData.graph(fillerPerEntity: 100)
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
        try store.insert(graph)
        let names = graph.objects(of: "Budget").compactMap { object -> String? in
            guard case .string(let name)? = graph[object]?.values["name"] else { return nil }
            return name
        }
        #expect(names.count > 50)
        // Every other budget's name, then names no budget has, shuffled by a fixed step.
        var values = stride(from: 0, to: names.count, by: 2).map { names[$0] }
        values += (0..<(5_000 - values.count)).map { "nobody \($0)" }
        values = (0..<values.count).map { values[($0 * 7_919) % values.count] }
        #expect(values.count == 5_000)
        let quoted = values.map { Printer.quoted($0) }
        let chain = "Budget where " + quoted.map { "name == \($0)" }.joined(separator: " || ")
        let list = "Budget where name in [" + quoted.joined(separator: ", ") + "]"
        let (chainSQL, chainRows) = try rows(chain, store, graph)
        let (listSQL, listRows) = try rows(list, store, graph)
        #expect(chainRows == listRows)
        let wanted = Set(values)
        #expect(chainRows.count == names.filter(wanted.contains).count && chainRows.count > 25)
        #expect(chainSQL == listSQL, "the chain is the IN query")
        #expect(!chainSQL.contains(" OR "))
        let onPostgres = try postgreSQL(chain, store.schema)
        #expect(onPostgres == (try postgreSQL(list, store.schema)))
        #expect(occurrences(of: " IN (", in: onPostgres) == 1 && !onPostgres.contains(" OR "))
        // Negated: every other budget.
        let (_, negated) = try rows("Budget where !(\(chain.dropFirst("Budget where ".count)))", store, graph)
        #expect(Set(negated).union(chainRows).count == names.count && Set(negated).isDisjoint(with: chainRows))
    }

    @Test func equalitiesInAnyOrderAndInterleavedWithOtherTestsJoinOneList() throws {
        let (store, graph) = try ExampleStore.make()
        let mixed = try rows("Budget where name == 'Vacation' || limit > 3000 || 'Rent' == name", store, graph)
        #expect(occurrences(of: " IN (", in: mixed.sql) == 1 && mixed.sql.contains(" > "), "\(mixed.sql)")
        let separate = try rows(
            "Budget where name in ['Vacation', 'Rent'] || limit > 3000", store, graph)
        #expect(mixed.keys == separate.keys)
        // Two paths, each with its own list; an equality alone stays as it is.
        let two = try rows(
            "Transaction where note == 'Hotel' || budget.name == 'Rent' || note == 'Bakery' || budget.name == 'Gifts' || note beginswith 'F'",
            store, graph)
        #expect(occurrences(of: " IN (", in: two.sql) == 2, "\(two.sql)")
        #expect(two.sql.contains(#""ZNOTE" IN (?1, ?2)"#) && two.sql.contains(#""ZNAME" IN (?3, ?4)"#), "\(two.sql)")
        let one = try rows("Budget where name == 'Vacation' || limit == 100", store, graph)
        #expect(!one.sql.contains(" IN ("), "\(one.sql)")
        // Inside a quantifier, and negated there.
        let inside = try rows(
            "Budget where any transactions.note == 'Hotel' || any transactions.note == 'Rent'", store, graph)
        _ = inside
        let closure = try rows(
            "Budget where transactions.contains { $0.note == 'Hotel' || $0.note == 'Museum tickets' || $0.amount > 500 }",
            store, graph)
        #expect(occurrences(of: #""ZNOTE" IN ("#, in: closure.sql) == 1, "\(closure.sql)")
        _ = try rows(
            "Budget where !transactions.allSatisfy { !($0.note == 'Hotel' || $0.note == 'Museum tickets') }", store, graph)
    }

    @Test func nilConstantsStayNilTestsAndNegationIsTwoValued() throws {
        let (store, graph) = try ExampleStore.make()
        // `budget.name` is nil for a transaction with no budget: `==` is false for it,
        // and the negation true, as the evaluator says.
        for text in [
            "Transaction where budget.name == 'Vacation' || budget.name == 'Rent'",
            "Transaction where !(budget.name == 'Vacation' || budget.name == 'Rent')",
            "Transaction where budget.name == nil || budget.name == 'Vacation' || budget.name == 'Rent'",
            "Transaction where !(budget.name == nil || budget.name == 'Vacation' || nil == budget.name || budget.name == 'Rent')",
            "Transaction where budget?.name == 'Vacation' || budget?.name == 'Rent' || note == 'Hotel'",
            "Transaction where !(note == 'Hotel' || note == 'Taxi') && budget.name != nil",
        ] {
            let (sql, keys) = try rows(text, store, graph)
            #expect(sql.contains(" IN ("), "\(text)\n\(sql)")
            #expect(!keys.isEmpty || text.contains("!"), "\(text) selects nothing: a weak test")
        }
        let noBudget = graph.objects(of: "Transaction").filter { graph[$0]?.toOne["budget"] == nil }.map(\.key)
        #expect(!noBudget.isEmpty, "the example data needs a transaction with no budget")
        let (_, negated) = try rows("Transaction where !(budget.name == 'Vacation' || budget.name == 'Rent')", store, graph)
        #expect(Set(noBudget).isSubset(of: negated))
        // A nil constant built in code (no front end makes one; `== nil` checks to a nil
        // test) does not join: membership never matches nil, `==` does.
        let budget = try #require(ExampleSchemas.combined.entity(named: "Transaction"))
        let note = try #require(budget.attributes.first { $0.name == "note" })
        let path = AttributePath(level: 0, steps: [], entity: "Transaction", attribute: note)
        let attribute = TypedExpr.attribute(path, .string)
        let operands: [TypedExpr] = [
            .compare(.equal, attribute, .constant(.null, .string), []),
            .compare(.equal, attribute, .constant(.string("Hotel"), .string), []),
        ]
        #expect(TypedExpr.equalitiesAsMembership(operands).count == 2)
    }

    @Test func parametersJoinOnlyWhereThePathIsNeverNil() throws {
        let (store, graph) = try ExampleStore.make()
        // `name` is never nil: parameters join the list, and one bound to nil matches nothing.
        let named = "Budget where name == $a || name == $b || $c == name"
        for values: [Value] in [
            [.string("Vacation"), .string("Rent"), .string("nobody")], [.string("Rent"), .null, .null],
            [.null, .null, .null],
        ] {
            let parameters = Dictionary(uniqueKeysWithValues: zip(["a", "b", "c"], values.map { ParameterValue.single($0) }))
            let (sql, keys) = try rows(named, store, graph, parameters: parameters)
            #expect(occurrences(of: " IN (", in: sql) == 1, "\(sql)")
            let (_, negated) = try rows(
                "Budget where !(name == $a || name == $b || $c == name)", store, graph, parameters: parameters)
            #expect(Set(keys).union(negated).count == graph.objects(of: "Budget").count)
        }
        // `budget.name` may be nil, and so may a parameter, and nil == nil holds: the
        // chain stays a disjunction, and a nil parameter selects the transactions with no budget.
        let optional = "Transaction where budget.name == $a || budget.name == $b"
        let parameters: [String: ParameterValue] = ["a": .single(.string("Rent")), "b": .single(.null)]
        let (sql, keys) = try rows(optional, store, graph, parameters: parameters)
        #expect(!sql.contains(" IN ("), "\(sql)")
        let noBudget = graph.objects(of: "Transaction").filter { graph[$0]?.toOne["budget"] == nil }.map(\.key)
        #expect(Set(noBudget).isSubset(of: keys))
        // Constants and parameters mixed on a path that may be nil: the constants join.
        let (mixed, _) = try rows(
            "Transaction where budget.name == 'Rent' || budget.name == $a || budget.name == 'Travel'", store, graph,
            parameters: ["a": .single(.null)])
        #expect(occurrences(of: " IN (", in: mixed) == 1 && mixed.contains(" OR "), "\(mixed)")
    }

    /// Lowered again with the parameters' values (here for the `@count` conjunct's
    /// element pass), a parameter that may be nil becomes a constant and joins the
    /// list before the other bindings: the resolved statement's bindings, which
    /// PostgreSQL's store types its parameters by, are those of the SQL it runs.
    @Test func aStatementLoweredAgainWithValuesCarriesItsOwnBindings() throws {
        var mapping = StoreMapping.make(for: ExampleSchemas.combined, layout: .plain)
        mapping.database = .postgreSQL
        let text =
            "Snippet where tags.@count > $n && (folder.newName == 'a' || folder.creationDate > date('2024-01-01') || folder.newName == $b)"
        let compiled = try #require(
            QueryCompiler.compile(text, schema: ExampleSchemas.combined, mapping: mapping).compiled)
        #expect(compiled.shapeDependsOnValues)
        let resolved = try BindingResolver.resolve(
            compiled, parameters: ["n": .single(.int(1)), "b": .single(.string("b"))], environment: QueryEnvironment())
        #expect(occurrences(of: " IN (", in: resolved.sql) >= 1, "\(resolved.sql)")
        #expect(resolved.bindings.count == resolved.values.count)
        #expect(resolved.bindings.map(Self.typeName) != compiled.bindings.map(Self.typeName), "the order changed")
        for (binding, value) in zip(resolved.bindings, resolved.values) {
            switch (binding, value) {
            case (.constant(_, .string), .string), (.constant(_, .int), .int): break
            case (.constant(_, .date), .date), (.constant(_, .date), .double): break
            default: Issue.record("\(value) bound as \(binding)")
            }
        }
    }

    private static func typeName(_ binding: SQLBinding) -> String {
        switch binding {
        case .constant(_, let type), .parameter(_, let type): "\(type)"
        default: "\(binding)"
        }
    }

    @Test func onlyPlainEqualitiesOfOneTypeJoin() throws {
        let (store, graph) = try ExampleStore.make()
        // `[c]` compares folded strings: not a membership test.
        let folded = try rows("Budget where name ==[c] 'vacation' || name ==[c] 'RENT'", store, graph)
        #expect(!folded.sql.contains(" IN ("), "\(folded.sql)")
        #expect(folded.keys.count == 2)
        // Doubles (a stored NaN is nil on PostgreSQL) and dates are left as they are.
        let limits = try rows("Budget where limit == 100 || limit == 2000", store, graph)
        #expect(!limits.sql.contains(" IN ("), "\(limits.sql)")
        // Enums, by case and by raw value.
        let genres = try rows("Movie where genre == .action || genre == 3 || .kids == genre", store, graph)
        #expect(occurrences(of: " IN (", in: genres.sql) == 1, "\(genres.sql)")
        #expect(genres.keys.count == graph.objects(of: "Movie").count)
        let onPostgres = try postgreSQL("Movie where genre == .action || genre == 3", store.schema)
        #expect(onPostgres.contains(" IN ("), "\(onPostgres)")
    }
}
