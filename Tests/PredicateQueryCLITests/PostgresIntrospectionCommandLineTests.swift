// `pq --store postgresql://…` on databases pq did not create, as the command line
// runs it: a Fluent-style schema written by hand is read from its catalog (what
// is left out is a warning and a `.schema` note), queries print the rows
// hand-written SQL returns with uuid keys as `#`, `--model` Swift sources map
// onto its tables, and a model mismatch, a database with no tables and a search
// path naming no schema are clear errors with exit status 2. Skips with a notice
// when no server can be started.

import Foundation
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresIntrospectionCommandLineTests {
    static func database(_ name: String, _ ddl: String, on server: PostgresTestServer) throws -> String {
        try PostgresStoreFixture.create(name, on: server)
        let url = server.url(database: name)
        if !ddl.isEmpty {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-ddl-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("schema.sql")
            try ddl.write(to: file, atomically: true, encoding: .utf8)
            let loaded = server.run(
                "psql", ["-h", server.folder, "-U", "pq", "-d", name, "-X", "-v", "ON_ERROR_STOP=1", "-f", file.path])
            try #require(loaded, "cannot load the schema into \(name)")
        }
        return url
    }

    @Test("queries on a Fluent-style database print the rows hand-written SQL returns, keyed by uuid")
    func fluentQueries() throws {
        _ = try PostgresTestServer.with { server in
            let url = try Self.database("fluentcli", PostgresExistingSchemas.fluent, on: server)
            let query = "Transaction where budget.name == 'Groceries' sort by amount desc"
            let result = try PQProcess.run(["--store", url, "--format", "csv", "--columns", "#,status,budget", query])
            #expect(result.status == 0, "\(result.error)")
            let expected = try #require(
                server.rows(
                    "SELECT upper(t.id::text), t.status, b.name || ' (#' || upper(b.id::text) || ')' FROM transactions t JOIN budgets b ON b.id = t.budget_id WHERE b.name = 'Groceries' ORDER BY t.amount DESC",
                    database: "fluentcli"))
            let lines = result.output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
            #expect(lines.first == "#,status,budget", "\(result.output)")
            #expect(Array(lines.dropFirst()) == expected.map { $0.replacingOccurrences(of: "|", with: ",") }, "\(result.output)")
            #expect(expected.count == 3)
            #expect(result.error.contains("pq: warning: column 'budgets.settings' is left out"), "\(result.error)")

            let table = try PQProcess.run(["--store", url, "Trip where any tags.name == 'family' sort by title"])
            #expect(table.status == 0, "\(table.error)")
            #expect(
                table.output.contains("00000000-0000-0000-0000-0000000000D2") && table.output.contains("Alps"), "\(table.output)")
            #expect(table.output.contains("(2 rows)"), "\(table.output)")

            let json = try PQProcess.run(["--store", url, "--format", "json", "Budget where kind == .oneOff"])
            #expect(json.output.contains("{\"#\": \"00000000-0000-0000-0000-0000000000B4\", "), "\(json.output)")
            #expect(json.output.contains("\"kind\": \"oneOff\""), "\(json.output)")
            #expect(
                json.output.contains("\"owner\": {\"#\": \"00000000-0000-0000-0000-0000000000A1\", \"label\": \"Ada\"}"),
                "\(json.output)")

            let schema = try PQProcess.run(["--store", url], input: ".schema\n")
            #expect(schema.output.contains("-- inferred from the store's tables"), "\(schema.output)")
            #expect(schema.output.contains("-- table 'trip_notes' is left out"), "\(schema.output)")
            #expect(schema.output.contains("BudgetKind"), "\(schema.output)")

            let check = try PQProcess.run(["--store", url, "--check", "Budget where settings != nil"])
            #expect(check.status == 1, "a left-out column cannot be queried")
            #expect(
                check.error.contains("pq: warning: column 'budgets.settings' is left out: pq cannot look inside jsonb values"))
        }
    }

    static let models = """
        import SwiftData

        enum Kind: String, Codable { case monthly, oneOff = "one-off", yearly }

        @Model final class Budget {
            var name: String
            var limit: Decimal
            var kind: Kind
            var createdAt: Date
            @Relationship(inverse: \\Transaction.budget) var transactions: [Transaction] = []
            init(name: String, limit: Decimal, kind: Kind, createdAt: Date) {
                self.name = name; self.limit = limit; self.kind = kind; self.createdAt = createdAt
            }
        }

        @Model final class Transaction {
            var amount: Double
            var note: String?
            var budget: Budget?
            init(amount: Double) { self.amount = amount }
        }
        """

    @Test("--model maps Swift models onto the tables; a mismatch lists every difference and exits 2")
    func modelOnExistingDatabase() throws {
        _ = try PostgresTestServer.with { server in
            let url = try Self.database("modelcli", PostgresExistingSchemas.fluent, on: server)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-models-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let good = folder.appendingPathComponent("Models.swift")
            try Self.models.write(to: good, atomically: true, encoding: .utf8)
            let run = try PQProcess.run(
                [
                    "--store", url, "--model", good.path, "--format", "csv", "--columns", "name",
                    "Budget where any transactions.amount > 300 sort by name",
                ])
            #expect(run.status == 0, "\(run.error)")
            let expected = try #require(
                server.rows(
                    "SELECT name FROM budgets b WHERE EXISTS (SELECT 1 FROM transactions t WHERE t.budget_id = b.id AND t.amount > 300) ORDER BY name COLLATE \"C\"",
                    database: "modelcli"))
            let names = run.output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
            #expect(names == ["name"] + expected, "\(run.output)")
            #expect(expected.count == 2)

            let bad = folder.appendingPathComponent("Wrong.swift")
            try Self.models.replacingOccurrences(of: "var limit: Decimal", with: "var limit: String\n    var archived: Bool")
                .replacingOccurrences(
                    of: "@Model final class Transaction",
                    with:
                        "@Model final class Receipt { var total: Double; init(total: Double) { self.total = total } }\n@Model final class Transaction"
                )
                .write(to: bad, atomically: true, encoding: .utf8)
            let mismatch = try PQProcess.run(["--store", url, "--model", bad.path, "Budget where name == 'Rent'"])
            #expect(mismatch.status == 2)
            #expect(mismatch.error.contains("the database does not match the model (3 differences):"), "\(mismatch.error)")
            #expect(mismatch.error.contains("Budget.limit is String, but 'budgets.limit' is numeric(12,2)"), "\(mismatch.error)")
            #expect(mismatch.error.contains("table 'budgets' has no column for Budget.archived"), "\(mismatch.error)")
            #expect(mismatch.error.contains("no table for Receipt"), "\(mismatch.error)")
        }
    }

    @Test("no tables, only unusable tables and a missing schema are clear errors with exit status 2")
    func errors() throws {
        _ = try PostgresTestServer.with { server in
            let empty = try Self.database("emptycli", "", on: server)
            let none = try PQProcess.run(["--store", empty, "limit > 1"])
            #expect(none.status == 2)
            #expect(none.error.contains("the schema 'public' of the database has no tables pq can query"), "\(none.error)")
            let unusable = try Self.database("unusablecli", "CREATE TABLE events (at timestamptz, payload jsonb);", on: server)
            let left = try PQProcess.run(["--store", unusable, "limit > 1"])
            #expect(left.status == 2)
            #expect(left.error.contains("table 'events' is left out: it has no primary key"), "\(left.error)")
            let nowhere = try PQProcess.run(["--store", empty + "?options=-csearch_path%3Dnowhere", "limit > 1"])
            #expect(nowhere.status == 2)
            #expect(nowhere.error.contains("no schema named by its search_path (nowhere)"), "\(nowhere.error)")
        }
    }
}
