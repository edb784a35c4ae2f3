// A parameter costs no index: every golden lowering case, with each of its
// literals turned into a parameter bound to the same value, gets the query plan
// the literal form gets, and the same rows. (A service binds every value, so
// `budget.name == $n` lowered to the null-safe `IS` scanned a million transactions
// where the literal form used an index; the operator is now chosen at bind time.)

import Foundation
import PredicateQueryExamples
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery
@testable import PredicateQuerySQLite

struct ParameterPlanTests {
    /// The query with every non-nil constant of its predicate a parameter (`$p0`, `$p1`, …),
    /// and the values to bind them to.
    static func parameterized(_ query: CheckedQuery) -> (CheckedQuery, [String: ParameterValue]) {
        var values: [String: ParameterValue] = [:]
        var declarations = query.parameters
        var result = query
        result.predicate = query.predicate?.rewritingLeaves { leaf in
            guard case .constant(let value, let type) = leaf, value != .null else { return leaf }
            let name = "p\(values.count)"
            values[name] = .single(value)
            declarations.append(ParameterDeclaration(name: name, type: type, span: .synthesized))
            return .parameter(name, type)
        }
        result.parameters = declarations
        return (result, values)
    }

    @Test func everyGoldenQueryHasTheSamePlanWithParameters() throws {
        let (store, _) = try ExampleStore.make()
        let cases = GoldenFile.cases(LoweringGoldenTests.files[0], target: "PredicateQuerySQLiteTests")
        var compared = 0
        var withParameterEquality = 0
        var reshaped = 0
        for golden in cases {
            let result = QueryCompiler.compile(
                golden.input, schema: store.schema, mapping: store.mapping, defaultEntity: golden.entity)
            guard let literal = result.compiled, let checked = result.checked else { continue }
            let (query, values) = Self.parameterized(checked)
            guard !values.isEmpty else { continue }
            let parameterized = try SQLLowering.lower(query, mapping: store.mapping)
            let environment = ExampleStore.environment
            let literalPlan = try store.queryPlan(literal, environment: environment)
            let parameterPlan = try store.queryPlan(parameterized, parameters: values, environment: environment)
            #expect(parameterPlan == literalPlan, "\(golden.testDescription)\n\(parameterized.sql)\n\(literal.sql)")
            let literalRows = try store.fetch(literal, environment: environment).map(\.id)
            let parameterRows = try store.fetch(parameterized, parameters: values, environment: environment).map(\.id)
            #expect(parameterRows == literalRows, "\(golden.testDescription)")
            compared += 1
            if parameterized.sql.contains("=?") { withParameterEquality += 1 }
            if parameterized.shapeDependsOnValues { reshaped += 1 }
        }
        #expect(compared >= 50)
        #expect(withParameterEquality >= 4)
        #expect(reshaped >= 5)
        print(
            "ParameterPlanTests: \(compared) golden queries compared, \(withParameterEquality) with a parameter equality, \(reshaped) lowered again with the values"
        )
    }

    @Test func equalityWithAParameterIsChosenAtBindTime() throws {
        let (store, _) = try ExampleStore.make()
        let query = try #require(
            QueryCompiler.compile(
                "Transaction where budget.name == $n", schema: store.schema, mapping: store.mapping
            ).compiled)
        #expect(query.sql.contains(#"t1."ZNAME" =?1= ?1"#))
        let named = try BindingResolver.resolve(query, parameters: ["n": .single(.string("Rent"))], environment: .init())
        #expect(named.sql.contains(#"t1."ZNAME" = ?1"#))
        let none = try BindingResolver.resolve(query, parameters: ["n": .single(.null)], environment: .init())
        #expect(none.sql.contains(#"t1."ZNAME" IS ?1"#))
        // nil == nil holds: the transactions with no budget (or a budget with no name).
        let rows = try store.fetch(query, parameters: ["n": .single(.null)])
        let expected = try store.fetch(
            try #require(
                QueryCompiler.compile("Transaction where budget.name == nil", schema: store.schema, mapping: store.mapping)
                    .compiled))
        #expect(rows.map(\.id) == expected.map(\.id))
        #expect(!rows.isEmpty)
    }

    @Test func aMarkerInsideAQuotedIdentifierIsLeftAlone() {
        let text = #"SELECT "a =?1= b" FROM t WHERE x =?1= ?1 AND y =?2= ?2"#
        #expect(
            CompiledQuery.resolvingEqualities(in: text, nilBindings: [1])
                == #"SELECT "a =?1= b" FROM t WHERE x = ?1 AND y IS ?2"#)
    }

    /// pq's own SQL is resolved from the slots it was rendered with, never searched:
    /// an identifier that reads like markers stays as it is.
    @Test func anIdentifierThatReadsLikeMarkersIsLeftAlone() throws {
        let (store, _) = try ExampleStore.make()
        var mapping = store.mapping
        mapping.entities["Budget"]?.columns["name"] = "a =?1= b ?1[]"
        let query = try #require(
            QueryCompiler.compile("Transaction where budget.name == $n", schema: store.schema, mapping: mapping).compiled)
        #expect(query.sql.contains(#"t1."a =?1= b ?1[]" =?1= ?1"#))
        let none = try BindingResolver.resolve(query, parameters: ["n": .single(.null)], environment: .init())
        #expect(none.sql.contains(#"t1."a =?1= b ?1[]" IS ?1"#))
        let named = try BindingResolver.resolve(query, parameters: ["n": .single(.string("Rent"))], environment: .init())
        #expect(named.sql.contains(#"t1."a =?1= b ?1[]" = ?1"#))
    }
}
