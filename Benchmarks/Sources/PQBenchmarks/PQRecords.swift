// The structs pq decodes rows into (`SQLiteStore.fetch(_:as:)`), holding what the
// hand-written SQL's structs hold, with the entity by name.

import Foundation
import PredicateQuery
import PredicateQuerySQLite

struct PQBudget: RowDecodable {
    var id: Int64, entity: String, name: String, limit: Double
    init(row: borrowing RecordRow) throws(StoreError) {
        id = row.key; entity = row.entity; name = try row.string("name") ?? ""; limit = try row.double("limit") ?? 0
    }
}

struct PQTransaction: RowDecodable {
    var id: Int64, entity: String, note: String, amount: Double, date: Date, hasReceipt: Bool, budget: Int64?
    init(row: borrowing RecordRow) throws(StoreError) {
        id = row.key; entity = row.entity; note = try row.string("note") ?? ""; amount = try row.double("amount") ?? 0
        date = try row.date("date") ?? .distantPast; hasReceipt = try row.bool("hasReceipt") ?? false
        budget = try row.toOne("budget")
    }
}

struct PQMovie: RowDecodable {
    var id: Int64, entity: String, name: String, genre: Int64
    init(row: borrowing RecordRow) throws(StoreError) {
        id = row.key; entity = row.entity; name = try row.string("name") ?? ""; genre = try row.int("genre") ?? 0
    }
}

extension QueryCase {
    /// Runs a compiled pq query, decodes every row into its record, and returns the keys.
    func runPQRecords(_ store: SQLiteStore, _ query: CompiledQuery) throws -> [Int64] {
        switch rows {
        case .budgets: try store.fetch(query, as: PQBudget.self, parameters: pqParameters).map(\.id)
        case .transactions: try store.fetch(query, as: PQTransaction.self, parameters: pqParameters).map(\.id)
        case .movies: try store.fetch(query, as: PQMovie.self, parameters: pqParameters).map(\.id)
        }
    }
}
