// The `pq` binary on a live PostgreSQL server: the example data loaded with
// --load-examples, then the same queries print the same output as on the SQLite
// example store, in every format; PQ_DATABASE_URL names the database without
// --store; a refused form, a connection failure and a database without pq's
// tables are clear errors with the documented exit status. Skips with a notice
// when no server can be started.

import Foundation
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresCommandLineTests {
    static let queries = [
        "limit > 100 && name contains 'Vac'",
        "Transaction where budget.name == 'Rent' sort by amount desc limit 3",
        "Recipe where any ingredients.name contains 'egg'",
        "transactions.@count > 2 sort by name",
        "Snippet where tags.@count == 0 sort by creationDate desc",
        "Transaction where date > '2024-03-01' sort by date limit 4 offset 1",
        "Transaction where note == nil && !(amount > 50)",
        "Movie where genre in [.kids, .horror] sort by name",
        "User where any children.age < 10",
        "Budget where !(any transactions.hasReceipt == true) sort by limit desc, name",
        "Budget where name contains[c] 'VAC' || name like 'R?nt*' sort by name[cd] desc",
        "Movie where name matches '[A-Z][a-z]+( [A-Z][a-z]+)*' && name beginswith[cd] 'T' sort by name[c]",
    ]

    @Test("the example queries print the same on PostgreSQL as on the SQLite example store")
    func sameOutputAsSQLite() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStoreFixture.create("examples", on: server)
            let url = server.url(database: "examples")
            let loaded = try PQProcess.run(["--store", url, "--load-examples", "--count", "Budget where TRUEPREDICATE"])
            #expect(loaded.status == 0, "\(loaded.error)")
            let budgets = try PQProcess.run(["--count", "Budget where TRUEPREDICATE"])
            #expect(loaded.output == budgets.output, "the loaded data holds as many budgets as the example store")
            var compared = 0
            for query in Self.queries {
                for format in ["table", "json", "csv"] {
                    let onPostgres = try PQProcess.run(["--store", url, "--format", format, query])
                    let onSQLite = try PQProcess.run(["--format", format, query])
                    #expect(onSQLite.status == 0, "\(query): \(onSQLite.error)")
                    #expect(onPostgres.status == onSQLite.status, "\(query): \(onPostgres.error)")
                    #expect(onPostgres.output == onSQLite.output, "\(query) (\(format))")
                    if onSQLite.output.contains("#") || onSQLite.output.contains("[") { compared += 1 }
                }
            }
            #expect(compared == Self.queries.count * 3)
            let viaEnvironment = try PQProcess.run([Self.queries[0]], environment: ["PQ_DATABASE_URL": url])
            let first = try PQProcess.run([Self.queries[0]])
            #expect(viaEnvironment.status == 0 && viaEnvironment.output == first.output)
            let sql = try PQProcess.run(["--store", url, "--sql", "--count", "limit > $m", "--param", "m=100"])
            #expect(
                sql.output.contains("WHERE (t0.\"limit\" > $1) AND (t0.\"limit\" < 'NaN')") && sql.output.contains("$1 = 100.0"),
                "\(sql.output)")
            let explain = try PQProcess.run(["--store", url, "--explain", "limit > 100"])
            #expect(explain.status == 0 && explain.output.contains("QUERY PLAN: "), "\(explain.output)")
        }
    }

    @Test("refused forms, connection failures and missing tables are clear errors")
    func errors() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStoreFixture.create("empty", on: server)
            let url = server.url(database: "empty")
            let missing = try PQProcess.run(["--store", url, "limit > 1"])
            #expect(missing.status == 2)
            #expect(missing.error.contains("has no tables pq can query"), "\(missing.error)")
            _ = try PQProcess.run(["--store", url, "--load-examples", "--count", "Budget where TRUEPREDICATE"])
            let refused = try PQProcess.run(["--store", url, "Budget where name matches[c] 'vac.*'"])
            #expect(refused.status == 1)
            #expect(refused.error.contains("PostgreSQL cannot answer 'matches[c]'"), "\(refused.error)")
            // --sql shows the long classes and maps pq binds for [d] cut short.
            let sql = try PQProcess.run(["--store", url, "--sql", "Budget where name contains[d] 'cafe' sort by name[cd]"])
            #expect(sql.status == 0, "\(sql.error)")
            #expect(sql.output.contains("characters)") && sql.output.utf8.count < 5_000, "\(sql.output.prefix(300))")
            // Issue 27: the --load-examples command of Documentation/PostgreSQL.md, run twice, says the examples
            // are there and runs the query on them, without adding a second copy.
            let before = try PQProcess.run(["--store", url, "--count", "Transaction where TRUEPREDICATE"])
            let again = try PQProcess.run(["--store", url, "--load-examples", "--count", "Transaction where TRUEPREDICATE"])
            #expect(again.status == 0, "\(again.error)")
            #expect(again.error.contains("pq's examples are already loaded in"), "\(again.error)")
            #expect(before.status == 0 && again.output == before.output, "loading twice must not duplicate the data")
            // Tables that are not pq's examples are not taken for them.
            try PostgresStoreFixture.create("other", on: server)
            let made = server.run(
                "psql", ["-h", server.folder, "-U", "pq", "-d", "other", "-c", "CREATE TABLE \"Budget\" (id bigint PRIMARY KEY)"])
            try #require(made)
            let clash = try PQProcess.run(["--store", server.url(database: "other"), "--load-examples", "limit > 1"])
            #expect(clash.status == 2, "\(clash.error)")
            #expect(!clash.error.contains("already loaded"), "\(clash.error)")
            let unreachable = try PQProcess.run(["--store", server.url(database: "no_such_database"), "limit > 1"])
            #expect(unreachable.status == 2)
            #expect(unreachable.error.contains("cannot connect to PostgreSQL"), "\(unreachable.error)")
        }
    }
}

extension PostgresCommandLineTests {
    @Test("--timeout stops a query through PostgreSQL's statement_timeout, and the run goes on")
    func timeout() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStoreFixture.create("big", on: server)
            let url = server.url(database: "big")
            _ = try PQProcess.run(["--store", url, "--load-examples", "--count", "Budget where TRUEPREDICATE"])
            let filled = server.run(
                "psql",
                [
                    "-h", server.folder, "-U", "pq", "-d", "big", "-c",
                    "INSERT INTO \"Budget\" (id, name, \"limit\") SELECT i, 'Budget ' || i, i % 2000 FROM generate_series(100000, 700000) i",
                ])
            try #require(filled)
            let query = "Budget where name contains 'zzz' sort by limit"
            let stopped = try PQProcess.run(["--store", url, "--timeout", "0.02", query])
            #expect(stopped.status == 1)
            #expect(stopped.error == "error: the query ran longer than its 20 ms timeout and was stopped\n", "\(stopped.error)")
            let piped = try PQProcess.run(
                ["--store", url, "--timeout", "0.02"], input: query + "\nMovie where name == 'Frozen'\n")
            #expect(piped.output.contains("Frozen"), "the next query runs after one timed out: \(piped.output)")
            let unlimited = try PQProcess.run(["--store", url, "--count", query])
            #expect(unlimited.status == 0 && unlimited.output == "0\n", "\(unlimited.error)")
        }
    }
}

/// Databases for the command-line tests, made through `psql` on the test server.
enum PostgresStoreFixture {
    static func create(_ database: String, on server: PostgresTestServer) throws {
        let made = server.run("psql", ["-h", server.folder, "-U", "pq", "-d", "postgres", "-c", "CREATE DATABASE \(database)"])
        try #require(made, "cannot create the database \(database)")
    }
}
