// PostgreSQL's guarded numbers stay small in SQL text however deeply they nest:
// each guarded Double operation writes its operands three times, so past a budget
// the plain operator takes over (`SQLRenderer+Doubles`), and an @sum whose filter
// holds aggregates does without the partial-sum test (`SQLLowering+PartialSums`).

import Testing

@testable import PredicateQuery

struct PostgreSQLNumbersTests {
    let schema = Schema(entities: [
        Entity(
            "Budget", attributes: [Attribute("limit", .double), Attribute("count", .integer(bits: 64))],
            relationships: [Relationship("items", toMany: "Item", inverse: "budget")]),
        Entity(
            "Item", attributes: [Attribute("amount", .integer(bits: 64))],
            relationships: [Relationship("budget", to: "Budget", inverse: "items")]),
    ])

    func sql(_ text: String) throws -> String {
        var mapping = StoreMapping.make(for: schema, layout: .plain)
        mapping.database = .postgreSQL
        let result = QueryCompiler.compile(text, schema: schema, mapping: mapping)
        return try #require(result.compiled?.sql, "\(text): \(result.diagnostics.map(\.message))")
    }

    @Test func nestedDoubleArithmeticGrowsLinearlyPastTheBudget() throws {
        let depth = 15
        let text =
            "Budget where " + String(repeating: "(", count: depth) + "limit"
            + String(repeating: " * 2.5)", count: depth) + " > 0"
        let nested = try sql(text)
        #expect(nested.utf8.count < 100_000, "\(nested.utf8.count) bytes of SQL")
        // The innermost operations are guarded; one alone is.
        #expect(nested.contains("AS pq_v(x, y)"))
        #expect(try sql("Budget where limit * 2.5 > 0").contains("AS pq_v(x, y)"))
    }

    @Test func anIntSumTestsItsPartialSumsUnlessItsFilterHoldsAggregates() throws {
        #expect(try sql("Budget where items.@sum.amount > 0").contains("BETWEEN -9223372036854775808 AND 9223372036854775807"))
        let nested = try sql(
            "Budget where SUBQUERY(items, $i, $i.budget.items.@sum.amount > 1).@sum.amount > 0")
        #expect(nested.utf8.count < 20_000, "\(nested.utf8.count) bytes of SQL")
        #expect(nested.contains("AS integer)"))
    }
}
