// Rows decoded straight into an app's own types: the same objects and values as
// `fetch`'s Rows, and a clear error for a wrong name or type.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

private struct TransactionRecord: RowDecodable {
    var key: Int64
    var entity: String
    var note: String?
    var amount: Double?
    var date: Date?
    var hasReceipt: Bool?
    var budget: Int64?

    init(row: borrowing RecordRow) throws(StoreError) {
        key = row.key
        entity = row.entity
        note = try row.string("note")
        amount = try row.double("amount")
        date = try row.date("date")
        hasReceipt = try row.bool("hasReceipt")
        budget = try row.toOne("budget")
    }
}

/// Reads different attributes, in a different order, depending on the row.
private struct ChangingRecord: RowDecodable {
    var amount: Double?
    var note: String?
    var date: Date?

    init(row: borrowing RecordRow) throws(StoreError) {
        if row.key % 2 == 0 {
            date = try row.date("date")
            amount = try row.double("amount")
        } else {
            amount = try row.double("amount")
            note = try row.string("note")
            if (amount ?? 0) > 100 { date = try row.date("date") }
        }
    }
}

private struct MovieRecord: RowDecodable {
    var name: String?
    var genre: Int64?
    var genreValue: Value

    init(row: borrowing RecordRow) throws(StoreError) {
        name = try row.string("name")
        genre = try row.int("genre")
        genreValue = try row.value("genre")
    }
}

/// Reads whichever attribute the test names, with the reader it names.
private struct Probe: RowDecodable {
    nonisolated(unsafe) static var read: (borrowing RecordRow) throws(StoreError) -> Void = { _ throws(StoreError) in }
    init(row: borrowing RecordRow) throws(StoreError) { try Self.read(row) }
}

@Suite(.serialized)
struct RecordTests {
    private func compile(_ text: String, _ store: SQLiteStore, count: Bool = false) throws -> CompiledQuery {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping, count: count)
        guard let compiled = result.compiled else { throw StoreError("\(text) does not compile") }
        return compiled
    }

    @Test func recordsHoldWhatRowsHold() throws {
        let (store, _) = try ExampleStore.make()
        let query = try compile("Transaction where amount > 20 sort by date desc", store)
        let rows = try store.fetch(query)
        let records = try store.fetch(query, as: TransactionRecord.self)
        #expect(rows.count >= 5)
        #expect(records.map(\.key) == rows.map(\.id.key))
        for (record, row) in zip(records, rows) {
            #expect(record.entity == row.id.entity)
            #expect(record.note.map(Value.string) == row.values["note"])
            #expect(record.amount.map(Value.double) == row.values["amount"])
            #expect(record.date.map(Value.date) == row.values["date"])
            #expect(record.hasReceipt.map(Value.bool) == row.values["hasReceipt"])
            #expect(record.budget == row.toOne["budget"])
        }
        #expect(records.contains { $0.budget == nil } == rows.contains { $0.toOne["budget"] == nil })
    }

    @Test func zeroEmptyAndNilStayApart() throws {
        // SQLite reads NULL as 0 or no text; the readers must tell them apart.
        var graph = ObjectGraph(schema: ExampleSchemas.combined)
        let budget = graph.insert("Budget", ["name": .string(""), "limit": .double(0)])
        graph.insert("Budget", [:])
        let zero = graph.insert(
            "Transaction",
            [
                "note": .string(""), "amount": .double(0), "date": .date(Date(timeIntervalSinceReferenceDate: 0)),
                "hasReceipt": .bool(false),
            ])
        graph.link(zero, "budget", to: budget)
        graph.insert("Transaction", [:])
        graph.insert("User", ["name": .string("Zero"), "age": .int(0)])
        graph.insert("User", [:])
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
        try store.insert(graph)

        let transactions = try store.fetch(try compile("Transaction where true", store), as: TransactionRecord.self)
        #expect(transactions.count == 2)
        #expect(transactions.first?.note == "" && transactions.last?.note == nil)
        #expect(transactions.first?.amount == 0 && transactions.last?.amount == nil)
        #expect(transactions.first?.date == Date(timeIntervalSinceReferenceDate: 0) && transactions.last?.date == nil)
        #expect(transactions.first?.hasReceipt == false && transactions.last?.hasReceipt == nil)
        #expect(transactions.first?.budget == budget.key && transactions.last?.budget == nil)

        Probe.read = { row throws(StoreError) in
            let age = try row.int("age")
            #expect(age == (row.key == 1 ? 0 : nil))
        }
        #expect(try store.fetch(try compile("User where true", store), as: Probe.self).count == 2)
    }

    @Test func recordsMayReadDifferentAttributesOnEachRow() throws {
        let (store, _) = try ExampleStore.make()
        let query = try compile("Transaction where amount > 0", store)
        let rows = try store.fetch(query)
        let records = try store.fetch(query, as: ChangingRecord.self)
        #expect(rows.count >= 6)
        for (record, row) in zip(records, rows) {
            #expect(record.amount.map(Value.double) == row.values["amount"])
            if row.id.key % 2 == 0 {
                #expect(record.date.map(Value.date) == row.values["date"] && record.note == nil)
            } else {
                #expect(record.note.map(Value.string) == row.values["note"])
            }
        }
    }

    @Test func enumsReadAsTheirRawValues() throws {
        let (store, _) = try ExampleStore.make()
        let query = try compile("Movie where genre == .kids sort by name", store)
        let records = try store.fetch(query, as: MovieRecord.self)
        #expect(records.map(\.name) == ["Frozen", "Paddington", "Toy Story"])
        #expect(records.map { $0.name.map(Value.string) } == (try store.fetch(query)).map { $0.values["name"] })
        #expect(records.allSatisfy { $0.genre == 2 && $0.genreValue == .int(2) })
    }

    @Test func aWrongNameOrTypeIsAnErrorThatSaysWhich() throws {
        let (store, _) = try ExampleStore.make()
        let query = try compile("Budget where limit > 100", store)
        Probe.read = { row throws(StoreError) in _ = try row.string("nmae") }
        #expect(throws: StoreError.self) { try store.fetch(query, as: Probe.self) }
        do {
            _ = try store.fetch(query, as: Probe.self)
        } catch {
            #expect(error.message == "Budget has no attribute 'nmae' in these rows; they have limit, name")
        }
        Probe.read = { row throws(StoreError) in _ = try row.string("limit") }
        do {
            _ = try store.fetch(query, as: Probe.self)
            Issue.record("string(_:) read a Double")
        } catch {
            #expect(error.message == "'limit' is a Double attribute of Budget; string(_:) cannot read it")
        }
        Probe.read = { row throws(StoreError) in _ = try row.toOne("transactions") }
        do {
            _ = try store.fetch(query, as: Probe.self)
            Issue.record("toOne(_:) read a to-many relationship")
        } catch {
            #expect(error.message == "Budget has no to-one relationship 'transactions' in these rows")
        }
        Probe.read = { _ throws(StoreError) in }
        let counting = try compile("Budget where limit > 100", store, count: true)
        do {
            _ = try store.fetch(counting, as: Probe.self)
            Issue.record("a count query decoded records")
        } catch {
            #expect(error.message.contains("compiled to count returns a number, not objects"))
        }
    }

    @Test func theStoreCompilesAfreshWhenItsIndexesChange() throws {
        let (store, _) = try ExampleStore.make()
        let text = "Budget where name beginswith 'Va' && any transactions.amount > 100"
        #expect(store.compile(text).compiled?.sql.contains("t0.\"Z_PK\" IN (SELECT") == true)
        // An index on the name makes the prefix narrow the budgets: the cached
        // compilation, made without it, must not be reused.
        try store.execute("CREATE INDEX ZBUDGET_ZNAME_INDEX ON ZBUDGET (ZNAME)")
        #expect(store.compile(text).compiled?.sql.contains("EXISTS (SELECT 1") == true)
    }
}
