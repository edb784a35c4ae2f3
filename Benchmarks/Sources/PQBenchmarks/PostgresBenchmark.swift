// pq on PostgreSQL against hand-written SQL through libpq, on the same connection
// and the same data: budgets and their transactions in the tables PostgresStore
// creates, filled on the server with generate_series (every value derived from
// the row number). pq compiles each query once and fetches into its Rows; the
// hand-written side sends its SQL with PQexecParams (resolved from the store's
// own libpq, see `HandWrittenLibPQ`) and decodes each row's text
// into a struct. Before timing, both must return the same keys in the same order.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryPostgres
import PredicateQuerySQLite

public enum PostgresBenchmark {
    /// One query, as pq text and as the SQL a developer would write, with its values.
    struct Case {
        var name: String
        var pq: String
        var sql: String
        var values: [String]
    }

    static let cases = [
        Case(
            name: "compare + contains", pq: "Budget where limit > 1900 && name contains '77'",
            sql: "SELECT id, name, \"limit\" FROM \"Budget\" WHERE \"limit\" > $1 AND strpos(name, $2) > 0 ORDER BY id",
            values: ["1900", "77"]),
        Case(
            name: "to-one join", pq: "Transaction where budget.name == 'Budget 4242' sort by amount desc",
            sql:
                "SELECT t.id, t.note, t.amount, t.date, t.\"hasReceipt\", t.budget_id FROM \"Transaction\" t JOIN \"Budget\" b ON b.id = t.budget_id WHERE b.name = $1 ORDER BY t.amount DESC, t.id",
            values: ["Budget 4242"]),
        Case(
            name: "any", pq: "Budget where any transactions.amount > 999.5",
            sql:
                "SELECT id, name, \"limit\" FROM \"Budget\" WHERE id IN (SELECT budget_id FROM \"Transaction\" WHERE amount > $1) ORDER BY id",
            values: ["999.5"]),
        Case(
            name: "@count", pq: "Budget where transactions.@count > 8",
            sql:
                "SELECT id, name, \"limit\" FROM \"Budget\" WHERE id IN (SELECT budget_id FROM \"Transaction\" GROUP BY budget_id HAVING count(*) > $1) ORDER BY id",
            values: ["8"]),
        Case(
            name: "range, sort, page", pq: "Budget where limit between 100 and 110 sort by name limit 50",
            sql:
                "SELECT id, name, \"limit\" FROM \"Budget\" WHERE \"limit\" BETWEEN $1 AND $2 ORDER BY name COLLATE \"C\", id LIMIT 50",
            values: ["100", "110"]),
    ]

    struct HandBudget {
        var id: Int64
        var name: String
        var limit: Double
    }

    /// Creates and fills the tables unless the database already holds them, then
    /// vacuums them. Freshly loaded tables have no visibility map: an index-only
    /// scan (the `@count` pass) then reads the heap for every row, about 15× slower,
    /// until autovacuum gets to the table, which it may do in the middle of the
    /// timings, competing for the cores. A first run measured `@count` at 2.34× its
    /// hand-written SQL that way, with the same SQL and plan on both sides.
    static func prepare(_ url: String, scale: Int, log: (String) -> Void) throws -> PostgresStore {
        let store = try fill(url, scale: scale, log: log)
        try store.execute("VACUUM ANALYZE")
        return store
    }

    private static func fill(_ url: String, scale: Int, log: (String) -> Void) throws -> PostgresStore {
        if let store = try? PostgresStore.open(url) { return store }
        log("generating \(scale) budgets and about \(scale * 5) transactions in PostgreSQL…")
        let store = try PostgresStore.create(url, schema: ExampleSchemas.budgets)
        try store.execute(
            """
            INSERT INTO "Budget" (id, name, "limit") SELECT i, 'Budget ' || i, (i * 7919 % 2000)::double precision FROM generate_series(1::bigint, \(scale)) i;
            INSERT INTO "Transaction" (id, note, amount, date, "hasReceipt", budget_id)
              SELECT i, 'Note ' || i, (i * 104729 % 100000) / 100.0, timestamptz '2024-01-01' + (i % 100000) * interval '1 minute',
                     i % 3 = 0, CASE WHEN i % 64 = 0 THEN NULL ELSE (i * 2654435761 % \(scale)) + 1 END
              FROM generate_series(1::bigint, \(scale * 5)) i;
            ANALYZE;
            """)
        return store
    }

    /// The hand-written side: the SQL through libpq, each row decoded into a struct; the keys in order.
    static func handWritten(
        _ store: PostgresStore, _ libpq: HandWrittenLibPQ, _ sql: String, _ values: [String]
    ) throws
        -> [Int64]
    {
        try store.withUnsafeConnectionHandle { connection in
            let strings = values.map { strdup($0) }
            defer { strings.forEach { free($0) } }
            let pointers = strings.map { UnsafePointer($0) }
            let sent = pointers.withUnsafeBufferPointer { pointers in
                libpq.execParams(connection, sql, Int32(values.count), nil, pointers.baseAddress, nil, nil, 0)
            }
            guard let result = sent else { throw StoreError("out of memory") }
            defer { libpq.clear(result) }
            guard libpq.resultStatus(result) == HandWrittenLibPQ.tuplesOK else {
                throw StoreError(libpq.resultErrorMessage(result).map { String(cString: $0) } ?? "unknown error")
            }
            func text(_ row: Int32, _ column: Int32) -> String {
                libpq.getvalue(result, row, column).map { String(cString: $0) } ?? ""
            }
            var keys: [Int64] = []
            let count = libpq.ntuples(result)
            keys.reserveCapacity(Int(count))
            for row in 0..<count {
                let budget = HandBudget(id: Int64(text(row, 0)) ?? 0, name: text(row, 1), limit: Double(text(row, 2)) ?? 0)
                keys.append(budget.id)
            }
            return keys
        }
    }

    /// Times every case; returns the report's table rows.
    public static func run(url: String, scale: Int, repetitions: Int, log: (String) -> Void) throws -> String {
        let store = try prepare(url, scale: scale, log: log)
        let libpq = try HandWrittenLibPQ(for: store)
        var lines = [
            "| query | pq | hand-written (libpq) | pq / hand-written | rows |", "|---|---:|---:|---:|---:|",
        ]
        for benchmark in cases {
            guard let compiled = store.compile(benchmark.pq).compiled else {
                throw StoreError("'\(benchmark.pq)' does not compile for PostgreSQL")
            }
            let pqKeys = try store.fetch(compiled).map(\.id.key)
            let handKeys = try handWritten(store, libpq, benchmark.sql, benchmark.values)
            guard pqKeys == handKeys else {
                throw StoreError("\(benchmark.name): pq and the hand-written SQL select different rows")
            }
            var pqTimes: [Duration] = []
            var handTimes: [Duration] = []
            for repetition in 0..<repetitions {
                let first = repetition % 2 == 0
                for side in first ? [0, 1] : [1, 0] {
                    if side == 0 {
                        pqTimes.append(try Stopwatch.time { try store.fetch(compiled).count }.0)
                    } else {
                        handTimes.append(try Stopwatch.time { try handWritten(store, libpq, benchmark.sql, benchmark.values) }.0)
                    }
                }
            }
            let pq = Stopwatch.median(pqTimes)
            let hand = Stopwatch.median(handTimes)
            lines.append(
                "| `\(benchmark.pq)` | \(pq.formatted) | \(hand.formatted) | \(String(format: "%.2f×", pq.seconds / hand.seconds)) | \(pqKeys.count) |"
            )
            log("\(benchmark.name): pq \(pq.formatted), hand-written \(hand.formatted)")
        }
        return lines.joined(separator: "\n")
    }
}
