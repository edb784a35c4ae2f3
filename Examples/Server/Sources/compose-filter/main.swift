// compose-filter: the builder composing a filter from optional UI state.
//
// Builds the transaction list's query for a few states of its filter bar and runs
// each on pq's example data, printing pq's text for the query, its SQL and the
// notes of the transactions it finds.

import Foundation
import FilterComposition
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite

let states: [(String, TransactionFilter)] = [
    ("nothing set", TransactionFilter()),
    ("search 'TRAIN', with a receipt", TransactionFilter(search: "TRAIN", hasReceipt: true)),
    ("Travel budget, 50 or more, largest first", TransactionFilter(minimumAmount: 50, budget: "Travel", order: .largestFirst)),
    (
        "since 1 March 2024, by note",
        TransactionFilter(since: ISO8601DateFormatter().date(from: "2024-03-01T00:00:00Z"), order: .byNote)
    ),
]

do {
    let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
    try store.insert(ExampleData.graph())
    for (title, state) in states {
        let query = state.query(pageSize: 5)
        print("# \(title)")
        print("pq:  \(query.text)")
        let result = query.compile(schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled else {
            print(DiagnosticRenderer().render(result.diagnostics, in: query.text))
            exit(1)
        }
        print("SQL: \(compiled.statement(listSizes: [:]))")
        let rows = try store.fetch(compiled, parameters: query.boundValues)
        for row in rows {
            if case .string(let note)? = row.values["note"] { print("  - \(note)") }
        }
        print("")
    }
} catch {
    FileHandle.standardError.write(Data("compose-filter: \(error)\n".utf8))
    exit(1)
}
