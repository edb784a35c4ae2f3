// The ways opening a PostgreSQL database pq did not create can fail, each with a
// clear message: no tables, only tables pq cannot use, a search path naming no
// schema, a model that does not match the tables (every difference in one
// message), and an object parameter on a table keyed by uuid. And a model that
// does match is mapped onto the tables by name.

import Foundation
import PredicateQuery
import PredicateQueryPostgres
import PredicateQueryStore
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresIntrospectionErrorTests {
    static func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as StoreError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("no tables, unusable tables and a missing schema are clear errors")
    func openingErrors() throws {
        _ = try PostgresTestServer.with { server in
            let empty = try PostgresIntrospectionTests.database("nothing", "", on: server)
            let none = Self.message { _ = try PostgresStore.open(empty) }
            #expect(none == "the schema 'public' of the database has no tables pq can query", "\(none ?? "opened")")
            let unusable = try PostgresIntrospectionTests.database(
                "unusable",
                "CREATE TABLE log (at timestamptz, line text); CREATE TABLE pair (a int, b int, PRIMARY KEY (a, b)); CREATE VIEW recent AS SELECT * FROM log",
                on: server)
            let reasons = Self.message { _ = try PostgresStore.open(unusable) } ?? "opened"
            #expect(reasons.contains("no tables pq can query: table 'log' is left out: it has no primary key"), "\(reasons)")
            #expect(reasons.contains("table 'pair' is left out: its primary key (a, b) has 2 columns"), "\(reasons)")
            #expect(reasons.contains("view 'recent' is left out: pq reads tables only"), "\(reasons)")
            let missing = Self.message { _ = try PostgresStore.open(empty + "?options=-csearch_path%3Dnowhere") } ?? "opened"
            #expect(missing.contains("the database has no schema named by its search_path (nowhere)"), "\(missing)")
        }
    }

    /// The Fluent schema's budgets and transactions as a model declares them.
    static func model(limitType: AttributeType = .decimal, extra: [Attribute] = [], extraEntity: Bool = false) -> Schema {
        var entities = [
            Entity(
                "Budget",
                attributes: [
                    Attribute("name", .string), Attribute("limit", limitType), Attribute("kind", .named("Kind")),
                    Attribute("createdAt", .date),
                ] + extra,
                relationships: [Relationship("transactions", toMany: "Transaction", inverse: "budget")]),
            Entity(
                "Transaction", attributes: [Attribute("amount", .double), Attribute("note", .string, optional: true)],
                relationships: [Relationship("budget", to: "Budget", inverse: "transactions")]),
            Entity(
                "Trip", attributes: [Attribute("title", .string)],
                relationships: [Relationship("tags", toMany: "Tag", inverse: "trips")]),
            Entity(
                "Tag", attributes: [Attribute("name", .string)],
                relationships: [Relationship("trips", toMany: "Trip", inverse: "tags")]),
        ]
        if extraEntity { entities.append(Entity("Receipt", attributes: [Attribute("total", .double)])) }
        return Schema(
            entities: entities,
            enums: [
                EnumType("Kind", rawType: .string, cases: [("monthly", nil), ("oneOff", .string("one-off")), ("yearly", nil)])
            ])
    }

    @Test("a model maps onto the tables by name, and every mismatch is listed in one message")
    func modelMatching() throws {
        _ = try PostgresTestServer.with { server in
            let url = try PostgresIntrospectionTests.database("modelled", PostgresExistingSchemas.fluent, on: server)
            let store = try PostgresStore.open(url, schema: Self.model())
            #expect(!store.isSchemaInferred)
            #expect(store.mapping.entity("Budget")?.table == "budgets")
            #expect(store.mapping.entity("Budget")?.columns["createdAt"] == "created_at")
            let query = try #require(store.compile("Budget where kind == .oneOff || any transactions.amount > 1000").compiled)
            let names = try store.fetch(query).compactMap { row -> String? in
                if case .string(let name)? = row.values["name"] { return name }
                return nil
            }
            let expected = server.rows(
                "SELECT name FROM budgets b WHERE kind = 'one-off' OR EXISTS (SELECT 1 FROM transactions t WHERE t.budget_id = b.id AND t.amount > 1000) ORDER BY id",
                database: "modelled")
            #expect(names == expected)
            let tagged = try #require(store.compile("Trip where any tags.name == 'ski'").compiled)
            #expect(try store.fetch(tagged).count == 1)

            let wrong = Self.model(limitType: .string, extra: [Attribute("archived", .bool)], extraEntity: true)
            let message = Self.message { _ = try PostgresStore.open(url, schema: wrong) } ?? "opened"
            #expect(message.hasPrefix("the database does not match the model (3 differences):"), "\(message)")
            #expect(message.contains("Budget.limit is String, but 'budgets.limit' is numeric(12,2)"), "\(message)")
            #expect(message.contains("table 'budgets' has no column for Budget.archived (looked for 'archived')"), "\(message)")
            #expect(
                message.contains("no table for Receipt (looked for 'Receipt', 'receipt', 'receipts', 'Receipts')"), "\(message)")
        }
    }

    @Test("an object parameter of a table keyed by uuid is refused with what to compare instead")
    func uuidObjectParameter() throws {
        _ = try PostgresTestServer.with { server in
            let url = try PostgresIntrospectionTests.database("keyed", PostgresExistingSchemas.fluent, on: server)
            let store = try PostgresStore.open(url)
            let query = try #require(store.compile("Transaction where budget == $b").compiled)
            let message = Self.message { _ = try store.fetch(query, parameters: ["b": .single(.int(1))]) } ?? "ran"
            #expect(message.contains("'Budget' is keyed by its UUID attribute 'id'"), "\(message)")
            let byKey = try #require(store.compile("Transaction where budget.id == $b").compiled)
            let groceries = try #require(UUID(uuidString: "00000000-0000-0000-0000-0000000000b3"))
            let rows = try store.fetch(byKey, parameters: ["b": .single(.uuid(groceries))])
            #expect(rows.count == 3)
        }
    }
}
