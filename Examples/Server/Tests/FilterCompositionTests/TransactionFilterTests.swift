// The filter bar's state becomes the query a person would write by hand for the
// controls that are set, and that query finds what the example data holds.

import Foundation
import FilterComposition
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

struct TransactionFilterTests {
    private func notes(_ filter: TransactionFilter, pageSize: Int = 50, page: Int = 0) throws -> [String] {
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph())
        let query = filter.query(pageSize: pageSize, page: page)
        let compiled = try #require(query.compile(schema: store.schema, mapping: store.mapping).compiled)
        return try store.fetch(compiled, parameters: query.boundValues).compactMap {
            if case .string(let note)? = $0.values["note"] { note } else { nil }
        }
    }

    @Test func anEmptyFilterBarMatchesEverything() throws {
        let query = TransactionFilter().query()
        #expect(query.text == "Transaction sort by date desc, amount desc limit 50")
        #expect(try notes(TransactionFilter()).count == 14)
    }

    @Test func eachControlThatIsSetAddsOneCondition() {
        let filter = TransactionFilter(search: "  train ", minimumAmount: 10, hasReceipt: false, budget: "Travel", order: .byNote)
        #expect(filter.query(pageSize: 10, page: 2).text
            == "Transaction where note contains[cd] 'train' && amount >= 10 && hasReceipt == false && budget?.name == 'Travel' sort by note[c] limit 10 offset 20")
        #expect(TransactionFilter(search: "   ").query().text == TransactionFilter().query().text)
    }

    @Test func theQueriesFindWhatTheDataHolds() throws {
        #expect(try notes(TransactionFilter(search: "RENT")) == ["May rent", "April rent"])
        #expect(try notes(TransactionFilter(minimumAmount: 50, maximumAmount: 100, order: .largestFirst))
            == ["Cash withdrawal", "Weekly shop", "Birthday present", "Train to Porto"])
        #expect(try notes(TransactionFilter(hasReceipt: false, budget: "Groceries", order: .byNote)) == ["Bakery", "Farmers market"])
        let may = try #require(ISO8601DateFormatter().date(from: "2024-05-12T00:00:00Z"))
        #expect(try notes(TransactionFilter(since: may)) == ["Cabin deposit", "Cash withdrawal", "Birthday present", "Flowers"])
        #expect(try notes(TransactionFilter(order: .byNote), pageSize: 3, page: 1) == ["Cabin deposit", "Cash withdrawal", "Farmers market"])
    }
}
