// A typed query runs on a store as its text does (issue 25, item 3): the builder's
// `ModelQuery`, one read with `ModelQuery(parsing:)`, and one converted from a
// `#Predicate` fetch and count the rows the same query as text fetches and counts,
// with captured values and `$parameters` bound; one that does not compile for the
// store says why with its diagnostics; the pool takes it the same way.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryStore
import Testing

@testable import PredicateQuerySQLite

struct ModelQueryFetchTests {
    static func store() throws -> SQLiteStore {
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: 40))
        return store
    }

    /// The keys the text query fetches, and how many it counts.
    static func expected(_ text: String, _ store: SQLiteStore, _ parameters: [String: ParameterValue] = [:]) throws
        -> (keys: [Int64], count: Int64)
    {
        let rows = try #require(store.compile(text).compiled)
        // Compiled to count, as the store's own count of `rows` is not what this holds.
        let count = try #require(QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping, count: true).compiled)
        return (try store.fetch(rows, parameters: parameters).map(\.id.key), try store.count(count, parameters: parameters))
    }

    @Test func everyFrontEndFetchesAndCountsAsItsText() throws {
        let store = try Self.store()
        let threshold = 300.0
        let built = Budget.filter { $0.limit > threshold && $0.name.contains("a") }.sorted(by: \.name)
        let text = "Budget where limit > 300 && name contains 'a' sort by name"
        let (keys, count) = try Self.expected(text, store)
        #expect(!keys.isEmpty && count == Int64(keys.count))
        #expect(try store.fetch(built).map(\.id.key) == keys)
        #expect(try store.count(built) == count)

        let parsed = try ModelQuery<Budget>(parsing: "limit > $min && name contains 'a' sort by name")
        #expect(try store.fetch(parsed, parameters: ["min": .single(.double(300))]).map(\.id.key) == keys)
        #expect(try store.fetch(parsed.binding(["min": .single(.double(300))])).map(\.id.key) == keys)
        #expect(try store.count(parsed, parameters: ["min": .single(.double(300))]) == count)

        let converted = try ModelQuery(#Predicate<Budget> { $0.limit > 300 && $0.name.contains("a") })
        #expect(try Set(store.fetch(converted).map(\.id.key)) == Set(keys))
    }

    @Test func aQueryThatDoesNotCompileForTheStoreSaysWhy() throws {
        // A store of movies only: it has no Budget table.
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.movies)
        do {
            _ = try store.fetch(Budget.filter { $0.limit > 100 })
            Issue.record("a query of an entity the store does not have ran")
        } catch let error as ModelQueryError {
            #expect(error.diagnostics.contains { $0.severity == .error }, "\(error)")
            #expect("\(error)".contains("Budget"), "\(error)")
        }
        // An unbound parameter is the store's error, before anything runs.
        let parsed = try ModelQuery<Budget>(parsing: "limit > $min")
        #expect(throws: StoreError.self) { try Self.store().fetch(parsed) }
    }

    @Test func thePoolTakesItTheSameWay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-modelquery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("budgets.sqlite").path
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
            try store.insert(ExampleData.graph(fillerPerEntity: 40))
        }
        let pool = try SQLiteStorePool(at: path, size: 2)
        let query = Budget.filter { $0.limit > 300 }.sorted(by: \.name)
        let (keys, count) = try Self.expected("Budget where limit > 300 sort by name", try SQLiteStore.open(at: path))
        // A budget per call (a budget is a deadline): a task resumed late on busy task
        // threads once spent a shared one between two calls.
        #expect(try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(120))).map(\.id.key) == keys)
        #expect(try await pool.count(query, budget: QueryBudget(timeout: .seconds(120))) == count)
    }

    /// A transaction as an app's own struct reads it.
    struct Spending: Decodable, Sendable, Equatable {
        var id: Int64
        var note: String
        var amount: Double
        var date: Date
        var hasReceipt: Bool
        var budget: Int64?
    }

    @Test func rowsDecodeIntoAnAppsOwnTypes() throws {
        let store = try Self.store()
        let text = "Transaction where amount > 10 sort by amount desc"
        let compiled = try #require(store.compile(text).compiled)
        let rows = try store.fetch(compiled)
        let records = try store.fetch(compiled, as: Spending.self)
        #expect(!records.isEmpty && records.count == rows.count)
        for (record, row) in zip(records, rows) {
            #expect(record.id == row.id.key)
            #expect(Value.string(record.note) == row.values["note"])
            #expect(Value.double(record.amount) == row.values["amount"])
            #expect(Value.date(record.date) == row.values["date"])
            #expect(record.budget == row.toOne["budget"])
        }
        // A typed query decodes the same way.
        let typed = Transaction.filter { $0.amount > 10 }.sorted(by: \.amount, .reverse)
        #expect(try store.fetch(typed, as: Spending.self) == records)
    }

    @Test func aRowThatDoesNotFitTheTypeSaysWhichProperty() throws {
        let store = try Self.store()
        let compiled = try #require(store.compile("Transaction where amount > 10").compiled)
        struct Misspelled: Decodable { var amout: Double? }
        struct WrongType: Decodable { var note: Int }
        struct NotOptional: Decodable { var budget: Int64 }
        for (attempt, fragment) in [
            ({ _ = try store.fetch(compiled, as: Misspelled.self) } as () throws -> Void, "'amout'"),
            ({ _ = try store.fetch(compiled, as: WrongType.self) }, "'note' holds"),
            ({ _ = try store.fetch(compiled, as: NotOptional.self) }, "'budget' is unset"),
        ] {
            do {
                try attempt()
                Issue.record("decoded, though \(fragment) should have failed")
            } catch let error as StoreError {
                #expect(error.message.contains(fragment), "\(error.message)")
                #expect(error.message.hasPrefix("cannot decode a row of Transaction as "), "\(error.message)")
            }
        }
        let count = try #require(
            QueryCompiler.compile("Transaction where amount > 10", schema: store.schema, mapping: store.mapping, count: true).compiled)
        #expect(throws: StoreError.self) { try store.fetch(count, as: Spending.self) }
    }
}
