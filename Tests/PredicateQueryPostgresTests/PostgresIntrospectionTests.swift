// Opening PostgreSQL databases pq did not create: a Fluent-style schema and a
// legacy one, written by hand (`PostgresExistingSchemas`), are read from the
// catalog into entities, attributes, enums and relationships both ways, and pq's
// answers are the rows hand-written SQL returns on the same data. Skips with a
// notice when no server can be started.

import Foundation
import PredicateQuery
import PredicateQueryPostgres
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresIntrospectionTests {
    /// A new database on the server with `ddl` run in it; its URL.
    static func database(_ name: String, _ ddl: String, on server: PostgresTestServer) throws -> String {
        try PostgresStore.run("CREATE DATABASE \(name)", at: server.url())
        let url = server.url(database: name)
        if !ddl.isEmpty { try PostgresStore.run(ddl, at: url) }
        return url
    }

    /// The keys of the rows pq returns for `query`, as text.
    static func keys(_ store: PostgresStore, _ query: String) throws -> [String] {
        let result = store.compile(query)
        let compiled = try #require(result.compiled, "\(query): \(result.diagnostics.map(\.message))")
        return try store.fetch(compiled).map { $0.shownKey.lowercased() }
    }

    @Test("a Fluent-style schema is read as entities, typed attributes, enums and relationships both ways")
    func fluentSchema() throws {
        _ = try PostgresTestServer.with { server in
            let store = try PostgresStore.open(try Self.database("fluent", PostgresExistingSchemas.fluent, on: server))
            let schema = store.schema
            #expect(store.isSchemaInferred)
            #expect(Set(schema.entities.map(\.name)) == ["Budget", "Tag", "Transaction", "Trip", "User"])
            let budget = try #require(schema.entity(named: "Budget"))
            let types = Dictionary(uniqueKeysWithValues: budget.attributes.map { ($0.name, $0.type) })
            #expect(
                types == [
                    "id": .uuid, "name": .string, "limit": .decimal, "kind": .named("BudgetKind"), "ownerId": .uuid,
                    "createdAt": .date,
                ])
            #expect(budget.attributes.filter(\.isOptional).map(\.name) == ["ownerId"])
            #expect(store.mapping.entity("Budget")?.columns["createdAt"] == "created_at")
            #expect(store.mapping.entity("Budget")?.primaryKey == "id")
            let kind = try #require(schema.enumType(named: "BudgetKind"))
            #expect(kind.cases.map(\.name) == ["monthly", "oneOff", "yearly"])
            #expect(kind.cases.map(\.rawValue) == [.string("monthly"), .string("one-off"), .string("yearly")])
            let status = try #require(schema.enumType(named: "TransactionStatus"))
            #expect(status.cases.map(\.rawValue) == [.string("pending"), .string("cleared"), .string("void")])
            /// A relationship as "destination, to-one/to-many, optional?, inverse".
            func relationship(_ entity: String, _ name: String) -> String? {
                schema.entity(named: entity)?.relationships.first { $0.name == name }.map {
                    "\($0.destination), \($0.isToMany ? "to-many" : "to-one"), \($0.isOptional ? "optional" : "required"), \($0.inverse ?? "-")"
                }
            }
            #expect(relationship("Transaction", "budget") == "Budget, to-one, required, transactions")
            #expect(relationship("Budget", "transactions") == "Transaction, to-many, required, budget")
            #expect(relationship("Budget", "owner") == "User, to-one, optional, budgets")
            #expect(relationship("User", "budgets") == "Budget, to-many, required, owner")
            #expect(relationship("Trip", "tags") == "Tag, to-many, required, trips")
            #expect(relationship("Tag", "trips") == "Trip, to-many, required, tags")
            if case .joinTable(let table, let source, let destination)? = store.mapping.relationship("tags", of: "Trip") {
                #expect([table, source, destination] == ["trip_tag", "trip_id", "tag_id"])
            } else {
                Issue.record("Trip.tags is not mapped through the join table")
            }
            let notes = store.schemaNotes.joined(separator: "\n")
            #expect(notes.contains("table 'trip_notes' is left out: its primary key (trip_id, seq) has 2 columns"), "\(notes)")
            #expect(notes.contains("column 'budgets.settings' is left out: pq cannot look inside jsonb values"), "\(notes)")
            #expect(notes.contains("column 'transactions.labels' is left out: it is an array (text[])"), "\(notes)")
        }
    }

    static let fluentQueries: [(pq: String, sql: String)] = [
        (
            "Transaction where budget.name == 'Groceries' && amount > 50",
            "SELECT t.id FROM transactions t JOIN budgets b ON b.id = t.budget_id WHERE b.name = 'Groceries' AND t.amount > 50 ORDER BY t.id"
        ),
        ("Budget where kind == .monthly", "SELECT id FROM budgets WHERE kind = 'monthly' ORDER BY id"),
        (
            "Budget where kind in [.oneOff, .yearly] || limit < 500 sort by kind desc, name",
            "SELECT id FROM budgets WHERE kind IN ('one-off', 'yearly') OR \"limit\" < 500 ORDER BY kind::text COLLATE \"C\" DESC, name COLLATE \"C\""
        ),
        (
            "Transaction where status == .pending sort by createdAt desc",
            "SELECT id FROM transactions WHERE status = 'pending' ORDER BY created_at DESC"
        ),
        (
            "Budget where any transactions.amount > 500",
            "SELECT b.id FROM budgets b WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.budget_id = b.id AND t.amount > 500) ORDER BY b.id"
        ),
        (
            "Budget where transactions.@count >= 2",
            "SELECT b.id FROM budgets b WHERE (SELECT count(*) FROM transactions t WHERE t.budget_id = b.id) >= 2 ORDER BY b.id"
        ),
        (
            "Trip where any tags.name == 'family' sort by title",
            "SELECT p.id FROM trips p WHERE EXISTS (SELECT 1 FROM trip_tag j JOIN tags g ON g.id = j.tag_id WHERE j.trip_id = p.id AND g.name = 'family') ORDER BY p.title COLLATE \"C\""
        ),
        (
            "Tag where any trips.title == 'Alps'",
            "SELECT g.id FROM tags g JOIN trip_tag j ON j.tag_id = g.id JOIN trips p ON p.id = j.trip_id WHERE p.title = 'Alps' ORDER BY g.id"
        ),
        (
            "User where any budgets.limit > 1500",
            "SELECT u.id FROM users u WHERE EXISTS (SELECT 1 FROM budgets b WHERE b.owner_id = u.id AND b.\"limit\" > 1500) ORDER BY u.id"
        ),
        ("Budget where owner == nil", "SELECT id FROM budgets WHERE owner_id IS NULL ORDER BY id"),
        (
            "Budget where owner.name == 'Ada' sort by limit desc",
            "SELECT b.id FROM budgets b JOIN users u ON u.id = b.owner_id WHERE u.name = 'Ada' ORDER BY b.\"limit\" DESC"
        ),
        (
            "Transaction where createdAt > '2024-03-10' sort by createdAt",
            "SELECT id FROM transactions WHERE created_at > '2024-03-10T00:00:00Z' ORDER BY created_at"
        ),
        (
            "Budget where limit > 1000.5 sort by name limit 2",
            "SELECT id FROM budgets WHERE \"limit\" > 1000.5 ORDER BY name COLLATE \"C\" LIMIT 2"
        ),
        (
            "Trip where startsOn == nil || startsOn < '2024-06-01'",
            "SELECT id FROM trips WHERE starts_on IS NULL OR starts_on < '2024-06-01' ORDER BY id"
        ),
        // The same tables and columns by their SQL names (issue 27, item 7).
        (
            "trips where starts_on == nil || starts_on < '2024-06-01'",
            "SELECT id FROM trips WHERE starts_on IS NULL OR starts_on < '2024-06-01' ORDER BY id"
        ),
        (
            "transactions where created_at > '2024-03-01T00:00:00Z' && budget.created_at < '2024-03-02T00:00:00Z' sort by created_at desc",
            "SELECT t.id FROM transactions t JOIN budgets b ON b.id = t.budget_id WHERE t.created_at > '2024-03-01 00:00:00+00' AND b.created_at < '2024-03-02 00:00:00+00' ORDER BY t.created_at DESC"
        ),
        (
            "users where budgets.@count >= 1 && created_at != nil",
            "SELECT u.id FROM users u WHERE (SELECT count(*) FROM budgets b WHERE b.owner_id = u.id) >= 1 AND u.created_at IS NOT NULL ORDER BY u.id"
        ),
    ]

    static let legacyQueries: [(pq: String, sql: String)] = [
        // By SQL names (issue 27, item 7).
        (
            "invoice_line where invoice.customer.full_name beginswith 'Ada' sort by price",
            "SELECT l.id FROM invoice_line l JOIN invoice i ON i.invoice_no = l.invoice_id JOIN customer c ON c.id = i.customer WHERE c.full_name LIKE 'Ada%' ORDER BY l.price"
        ),
        (
            "Invoice where customer.vip == true sort by total desc",
            "SELECT i.invoice_no FROM invoice i JOIN customer c ON c.id = i.customer WHERE c.vip ORDER BY i.total DESC"
        ),
        (
            "Customer where invoices.@count > 1",
            "SELECT c.id FROM customer c WHERE (SELECT count(*) FROM invoice i WHERE i.customer = c.id) > 1 ORDER BY c.id"
        ),
        (
            "InvoiceLine where invoice.customer.fullName beginswith 'Ada' sort by price",
            "SELECT l.id FROM invoice_line l JOIN invoice i ON i.invoice_no = l.invoice_id JOIN customer c ON c.id = i.customer WHERE c.full_name LIKE 'Ada%' ORDER BY l.price"
        ),
        (
            "Invoice where issued < '2024-03-06T00:00:00Z'",
            "SELECT invoice_no FROM invoice WHERE issued < '2024-03-06 00:00:00' ORDER BY invoice_no"
        ),
        ("Invoice where state == .p", "SELECT invoice_no FROM invoice WHERE state = 'p' ORDER BY invoice_no"),
        ("Invoice where customer == nil", "SELECT invoice_no FROM invoice WHERE customer IS NULL ORDER BY invoice_no"),
        (
            "Customer where any invoices.invoiceLines.qty >= 10 sort by fullName",
            "SELECT c.id FROM customer c WHERE EXISTS (SELECT 1 FROM invoice i JOIN invoice_line l ON l.invoice_id = i.invoice_no WHERE i.customer = c.id AND l.qty >= 10) ORDER BY c.full_name"
        ),
        (
            "Customer where any friends.fullName == 'Grace Hopper'",
            "SELECT customer_id FROM customer_friend f JOIN customer c ON c.id = f.friend_id WHERE c.full_name = 'Grace Hopper' ORDER BY customer_id"
        ),
        (
            "Customer where any customers.vip == true",
            "SELECT friend_id FROM customer_friend f JOIN customer c ON c.id = f.customer_id WHERE c.vip ORDER BY friend_id"
        ),
        (
            "Customer where transfersByFromCustomer.@max.amount > 15 || transfersByToCustomer.@count == 2",
            "SELECT c.id FROM customer c WHERE (SELECT max(amount) FROM transfer t WHERE t.from_customer_id = c.id) > 15 OR (SELECT count(*) FROM transfer t WHERE t.to_customer_id = c.id) = 2 ORDER BY c.id"
        ),
    ]

    @Test("queries through pq return the rows hand-written SQL returns, on both schemas")
    func answersMatchHandWrittenSQL() throws {
        _ = try PostgresTestServer.with { server in
            let url = try Self.database("answers", PostgresExistingSchemas.fluent + PostgresExistingSchemas.legacy, on: server)
            let fluent = try PostgresStore.open(url)
            var nonEmpty = 0
            for (query, sql) in Self.fluentQueries {
                let expected = try #require(server.rows(sql, database: "answers"), "\(sql)")
                #expect(try Self.keys(fluent, query) == expected, "\(query)")
                if !expected.isEmpty { nonEmpty += 1 }
            }
            let legacy = try PostgresStore.open(url + "?options=-csearch_path%3Dlegacy")
            #expect(Set(legacy.schema.entities.map(\.name)) == ["Customer", "Invoice", "InvoiceLine", "Transfer"])
            let customer = try #require(legacy.schema.entity(named: "Customer"))
            #expect(
                customer.relationships.map { "\($0.name) \($0.inverse ?? "-")" }.sorted() == [
                    "customers friends", "friends customers", "invoices customer",
                    "transfersByFromCustomer fromCustomer", "transfersByToCustomer toCustomer",
                ])
            #expect(
                legacy.schemaNotes.contains { $0.contains("the relationship back for 'toCustomer' is 'transfersByToCustomer'") })
            #expect(legacy.mapping.entity("Invoice")?.primaryKey == "invoice_no")
            #expect(legacy.schemaNotes.contains { $0.contains("'unkeyed_log' is left out: it has no primary key") })
            for (query, sql) in Self.legacyQueries {
                let expected = try #require(server.rows(sql, database: "answers", searchPath: "legacy"), "\(sql)")
                #expect(try Self.keys(legacy, query) == expected, "\(query)")
                if !expected.isEmpty { nonEmpty += 1 }
            }
            #expect(nonEmpty == Self.fluentQueries.count + Self.legacyQueries.count, "every comparison has rows to compare")
            // A to-one's key reads as the uuid it holds, for tables keyed by uuid.
            let rows = try fluent.fetch(try #require(fluent.compile("Transaction where note == 'hotel'").compiled))
            #expect(rows.first?.shownKey(of: "budget") == "00000000-0000-0000-0000-0000000000B2")
        }
    }

    @Test("an equality with a parameter bound to nil runs on PostgreSQL (IS NOT DISTINCT FROM, not SQLite's IS)")
    func equalityWithNilParameter() throws {
        _ = try PostgresTestServer.with { server in
            let store = try PostgresStore.open(try Self.database("nilparameter", PostgresExistingSchemas.fluent, on: server))
            let compiled = try #require(store.compile("User where createdAt == $at").compiled)
            let moment = try #require(ISO8601DateFormatter().date(from: "2024-01-02T10:00:00Z"))
            let cases: [(Value, String)] = [
                (.null, "created_at IS NULL"), (.date(moment), "created_at = '2024-01-02 10:00:00+00'"),
            ]
            for (value, condition) in cases {
                let sql = "SELECT id FROM users WHERE \(condition) ORDER BY id"
                let expected = try #require(server.rows(sql, database: "nilparameter"), "\(sql)")
                #expect(expected.count == 1, "\(sql)")
                let rows = try store.fetch(compiled, parameters: ["at": .single(value)])
                #expect(rows.map { $0.shownKey.lowercased() } == expected, "$at = \(value)")
            }
        }
    }

    @Test("names that would clash are resolved, and each change is reported")
    func nameClashes() throws {
        let ddl = """
            CREATE TYPE status AS ENUM ('new', 'done');
            CREATE TABLE statuses (id bigint PRIMARY KEY, label text);
            CREATE TABLE task (id int PRIMARY KEY);
            CREATE TABLE tasks (
                id bigserial PRIMARY KEY, state status NOT NULL, created_at date, "createdAt" date,
                status_id bigint REFERENCES statuses, "Weird Name" int, during tsrange);
            INSERT INTO statuses VALUES (1, 'open'), (2, 'closed');
            INSERT INTO tasks (state, created_at, status_id, "Weird Name") VALUES
                ('new', '2024-01-01', 1, 7), ('done', '2024-02-01', 2, 8), ('done', NULL, 1, NULL);
            """
        _ = try PostgresTestServer.with { server in
            let store = try PostgresStore.open(try Self.database("clashes", ddl, on: server))
            #expect(Set(store.schema.entities.map(\.name)) == ["Status", "Task", "Tasks"])
            let tasks = try #require(store.schema.entity(named: "Tasks"))
            #expect(
                tasks.attributes.map { "\($0.name): \($0.type)" } == [
                    "id: Int", "state: StatusEnum", "createdAt: Date", "statusId: Int", "weirdName: Int32",
                ])
            #expect(tasks.relationships.map(\.name) == ["status"])
            #expect(store.schema.entity(named: "Status")?.relationships.map(\.name) == ["tasks"])
            let notes = store.schemaNotes
            #expect(notes.contains("table 'tasks' is the entity 'Tasks': another table is already 'Task'"), "\(notes)")
            #expect(
                notes.contains("the enum type 'status' is the enum 'StatusEnum': an entity has the name 'Status'"), "\(notes)")
            #expect(notes.contains { $0.hasPrefix("column 'tasks.createdAt' is left out") }, "\(notes)")
            #expect(notes.contains("column 'tasks.during' is left out: pq has no type for tsrange"), "\(notes)")
            #expect(
                try Self.keys(store, "Tasks where state == .done && status.label == 'open'")
                    == server.rows(
                        "SELECT t.id FROM tasks t JOIN statuses s ON s.id = t.status_id WHERE t.state = 'done' AND s.label = 'open' ORDER BY t.id",
                        database: "clashes"))
            let weird = try #require(
                server.rows(
                    "SELECT DISTINCT s.id FROM statuses s JOIN tasks t ON t.status_id = s.id WHERE t.\"Weird Name\" > 7 ORDER BY s.id",
                    database: "clashes"))
            #expect(!weird.isEmpty)
            #expect(try Self.keys(store, "Status where any tasks.weirdName > 7") == weird)
        }
    }
}
