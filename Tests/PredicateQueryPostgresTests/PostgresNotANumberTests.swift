// A NaN stored in a PostgreSQL database pq did not create — in a `double
// precision`, `real` or `numeric` column — is nil to pq, as SQLite stores it: for
// every form that reads such a column (comparisons, nil tests, `in`, ranges,
// sorting, arithmetic, aggregates, output), pq's answer on PostgreSQL is the
// evaluator's on the same rows with NaN read as nil, the same as on a twin
// database holding NULL where the first holds NaN, and, for a few forms, what
// hand-written SQL returns. A NaN parameter is nil on PostgreSQL as on SQLite.
// Skips with a notice when no server can be started.

import Foundation
import PredicateQuery
import PredicateQueryPostgres
import PredicateQuerySQLite
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresNotANumberTests {
    /// The tables; the twin's `level` may be NULL, where the first's holds NaN.
    static func ddl(levelMayBeNull: Bool) -> String {
        """
        CREATE TABLE owners (id bigint PRIMARY KEY, name text NOT NULL);
        CREATE TABLE readings (
            id bigint PRIMARY KEY, owner_id bigint REFERENCES owners (id), amount double precision, weight real,
            price numeric, level double precision\(levelMayBeNull ? "" : " NOT NULL"), code bigint);
        """
    }

    /// The values of the nullable columns, NaN and ±∞ among them (nil is NULL).
    static let values: [Double?] = [.nan, 1.5, nil, 10, .infinity, -.infinity, -2, 0, .nan, 0.25]
    /// The values of the NOT NULL column `level`.
    static let levels: [Double] = [.nan, 3, .infinity, -1, 0.5]
    /// The owner of each reading (1 has NaN, 1.5 and nil; 2 has 10, ∞ and −∞, whose sum is NaN).
    static let owners: [Int64?] = [1, 1, 1, 2, 2, 2, 3, nil, 4, 3]

    /// Reading `row` (1-based): amount, weight, price, level, code.
    static func reading(_ row: Int) -> (amount: Double?, weight: Double?, price: Double?, level: Double, code: Int64?) {
        (
            values[row - 1], values[(row + 2) % values.count], values[(row + 5) % values.count],
            levels[row % levels.count], row % 3 == 0 ? nil : Int64(row % 4)
        )
    }

    /// SQL that fills the tables; with `nanAsNull`, NULL stands where NaN would.
    static func rows(nanAsNull: Bool) -> String {
        func literal(_ value: Double?) -> String {
            guard let value else { return "NULL" }
            if value.isNaN { return nanAsNull ? "NULL" : "'NaN'" }
            if value.isInfinite { return value < 0 ? "'-Infinity'" : "'Infinity'" }
            return "\(value)"
        }
        let sql = "INSERT INTO owners VALUES " + (1...5).map { "(\($0), 'o\($0)')" }.joined(separator: ", ") + ";\n"
        let readings = (1...values.count).map { row in
            let r = reading(row)
            return
                "(\(row), \(owners[row - 1].map(String.init) ?? "NULL"), \(literal(r.amount)), \(literal(r.weight)), \(literal(r.price)), \(literal(r.level)), \(r.code.map(String.init) ?? "NULL"))"
        }
        return sql + "INSERT INTO readings VALUES " + readings.joined(separator: ", ") + ";"
    }

    /// The rows as pq's evaluator holds them, NaN read as nil.
    static func graph(_ schema: Schema) -> ObjectGraph {
        var graph = ObjectGraph(schema: schema)
        var owners: [Int64: ObjectID] = [:]
        for key in Int64(1)...5 {
            owners[key] = graph.insert("Owner", ["id": .int(key), "name": .string("o\(key)")], key: key)
        }
        func value(_ number: Double?) -> Value { number.map { $0.isNaN ? .null : .double($0) } ?? .null }
        for row in 1...values.count {
            let r = reading(row)
            let values: [String: Value] = [
                "id": .int(Int64(row)), "amount": value(r.amount), "weight": value(r.weight), "price": value(r.price),
                "level": value(r.level), "code": r.code.map(Value.int) ?? .null,
            ]
            let id = graph.insert("Reading", values, key: Int64(row))
            if let owner = Self.owners[row - 1].flatMap({ owners[$0] }) { graph.link(id, "owner", to: owner) }
        }
        return graph
    }

    /// The database holding NaN and its twin holding NULL in its place, opened by pq.
    static func stores(on server: PostgresTestServer, _ prefix: String) throws -> (PostgresStore, PostgresStore) {
        let withNaN = try PostgresIntrospectionTests.database(
            "\(prefix)_nan", ddl(levelMayBeNull: false) + "\n" + rows(nanAsNull: false), on: server)
        let withNull = try PostgresIntrospectionTests.database(
            "\(prefix)_null", ddl(levelMayBeNull: true) + "\n" + rows(nanAsNull: true), on: server)
        return (try PostgresStore.open(withNaN), try PostgresStore.open(withNull))
    }

    static func keys(
        _ store: PostgresStore, _ text: String, _ parameters: [String: ParameterValue] = [:]
    ) throws -> [Int64] {
        let compiled = try #require(store.compile(text).compiled, "\(text): \(store.compile(text).diagnostics)")
        return try store.fetch(compiled, parameters: parameters).map(\.id.key)
    }

    static func evaluated(
        _ store: PostgresStore, _ graph: ObjectGraph, _ text: String, _ parameters: [String: ParameterValue] = [:]
    ) throws -> [Int64] {
        let checked = try #require(store.compile(text).compiled?.query, "\(text)")
        return try Evaluator(graph: graph, parameters: parameters).run(checked).map(\.key)
    }

    /// Every form that reads a Double column, on each kind of column.
    static var queries: [String] {
        var queries: [String] = []
        for column in ["amount", "weight", "price"] {
            queries += [
                "\(column) > 1", "\(column) >= 1.5", "\(column) < 1", "\(column) <= 0", "\(column) == 10",
                "\(column) != 10", "\(column) == nil", "\(column) != nil", "!(\(column) > 1)", "!(\(column) >= 0)",
                "!(\(column) < 1)", "!(\(column) == 10)", "\(column) in {1.5, 10, 0}", "!(\(column) in {1.5, 10})",
                "\(column) between {0, 10}", "!(\(column) between {0, 10})", "\(column) in 0..<10",
                "\(column) + 1 > 2", "\(column) * 2 == nil", "(\(column) ?? 7) == 7", "-\(column) < 0",
                "code != 99 sort by \(column)", "code != 99 sort by \(column) desc",
                "\(column) > -1e308 sort by \(column) desc",
            ].map { "Reading where \($0)" }
            queries += ["Reading sort by \(column)", "Reading sort by \(column) desc, code"]
            queries += [
                "readings.@sum.\(column) > 0", "readings.@sum.\(column) == 0", "readings.@avg.\(column) == nil",
                "readings.@avg.\(column) > 0", "readings.@min.\(column) < 2", "readings.@max.\(column) > 5",
                "readings.@max.\(column) == nil", "any readings.\(column) > 5", "all readings.\(column) > 0",
                "none readings.\(column) == nil", "!(any readings.\(column) >= 0)",
            ].map { "Owner where \($0)" }
        }
        // A NOT NULL column holding NaN, and columns compared with columns.
        queries += [
            "level > 1", "level == nil", "level != nil", "!(level > 1)", "level < 1", "level * 0 == nil",
            "amount < weight", "amount >= weight", "amount == weight", "amount != weight", "amount > price",
            "weight <= level", "amount in {weight, price}", "level between {amount, 10}",
        ].map { "Reading where \($0)" }
        queries += ["Reading sort by level desc", "Reading where code != 99 sort by level, amount desc"]
        return queries
    }

    @Test("a stored NaN reads as nil in every form, in double precision, real and numeric columns")
    func storedNotANumberIsNil() throws {
        _ = try PostgresTestServer.with { server in
            let (store, twin) = try Self.stores(on: server, "forms")
            let graph = Self.graph(store.schema)
            for text in Self.queries {
                let got = try Self.keys(store, text)
                let want = try Self.evaluated(store, graph, text)
                let compiled = store.compile(text).compiled?.sql ?? ""
                #expect(got == want, "\(text): PostgreSQL \(got), evaluator \(want)\n\(compiled)")
                #expect(got == (try Self.keys(twin, text)), "\(text): not the answer with NULL for NaN\n\(compiled)")
            }
        }
    }

    /// pq's query and hand-written SQL on the same rows, NaN read as NULL by hand.
    static let oracles: [(pq: String, sql: String)] = [
        ("Reading where amount > 1", "SELECT id FROM readings WHERE amount > 1 AND amount <> 'NaN' ORDER BY id"),
        ("Reading where weight == nil", "SELECT id FROM readings WHERE weight IS NULL OR weight = 'NaN' ORDER BY id"),
        ("Reading where price != nil", "SELECT id FROM readings WHERE price IS NOT NULL AND price <> 'NaN' ORDER BY id"),
        (
            "Reading where !(price < 1)",
            "SELECT id FROM readings WHERE price IS NULL OR price = 'NaN' OR price >= 1 ORDER BY id"
        ),
        ("Reading sort by amount", "SELECT id FROM readings ORDER BY NULLIF(amount, 'NaN') NULLS FIRST, id"),
        ("Reading sort by weight desc", "SELECT id FROM readings ORDER BY NULLIF(weight, 'NaN') DESC NULLS LAST, id"),
        (
            "Owner where readings.@max.amount > 5",
            "SELECT o.id FROM owners o WHERE (SELECT max(NULLIF(r.amount, 'NaN')) FROM readings r WHERE r.owner_id = o.id) > 5 ORDER BY o.id"
        ),
        (
            "Owner where readings.@avg.price < 1",
            "SELECT o.id FROM owners o WHERE (SELECT avg(NULLIF(r.price, 'NaN')) FROM readings r WHERE r.owner_id = o.id) < 1 ORDER BY o.id"
        ),
    ]

    @Test("pq's answers with a stored NaN are those of hand-written SQL that reads NaN as NULL")
    func storedNotANumberMatchesHandWrittenSQL() throws {
        _ = try PostgresTestServer.with { server in
            let (store, _) = try Self.stores(on: server, "oracle")
            for (text, sql) in Self.oracles {
                let want = try #require(server.rows(sql, database: "oracle_nan"), "\(sql)")
                #expect(!want.isEmpty, "\(sql): \(want)")
                #expect(try Self.keys(store, text).map(String.init) == want, "\(text)")
            }
        }
    }

    @Test("a stored NaN is output as nil, ±Infinity as ±∞")
    func storedNotANumberIsOutputAsNil() throws {
        _ = try PostgresTestServer.with { server in
            let (store, twin) = try Self.stores(on: server, "output")
            let text = "Reading sort by id"
            let compiled = try #require(store.compile(text).compiled)
            let rows = try store.fetch(compiled)
            let twinRows = try twin.fetch(try #require(twin.compile(text).compiled))
            #expect(rows.count == Self.values.count)
            for (row, twinRow) in zip(rows, twinRows) {
                let r = Self.reading(Int(row.id.key))
                for (name, stored) in [("amount", r.amount), ("weight", r.weight), ("price", r.price)] {
                    let want: Value = stored.map { $0.isNaN ? .null : .double($0) } ?? .null
                    #expect(
                        (row.values[name] ?? .null) == want, "row \(row.id.key) \(name): \(String(describing: row.values[name]))")
                    #expect(row.values[name] == twinRow.values[name], "row \(row.id.key) \(name)")
                }
                #expect((row.values["level"] ?? .null) == (r.level.isNaN ? .null : .double(r.level)), "row \(row.id.key)")
            }
        }
    }

    @Test("a NaN parameter is nil on PostgreSQL, as on SQLite and in the evaluator")
    func notANumberParameterIsNil() throws {
        _ = try PostgresTestServer.with { server in
            let (store, _) = try Self.stores(on: server, "params")
            let graph = Self.graph(store.schema)
            let sqlite = try SQLiteStore.create(at: ":memory:", schema: store.schema, layout: .plain)
            try sqlite.insert(graph)
            let nan: [String: ParameterValue] = [
                "v": .single(.double(.nan)), "list": .list([.double(.nan), .double(10)]),
            ]
            // What each query means with $v nil, worked out from the rows.
            let rows = Array(1...Self.values.count)
            let isNil = rows.filter { Self.reading($0).amount?.isNaN ?? true }.map(Int64.init)
            let cases: [(String, [Int64])] = [
                ("Reading where amount == $v", isNil),
                ("Reading where amount != $v", rows.map(Int64.init).filter { !isNil.contains($0) }),
                ("Reading where amount > $v", []), ("Reading where !(amount < $v)", rows.map(Int64.init)),
                ("Reading where amount in $list", rows.filter { Self.reading($0).amount == 10 }.map(Int64.init)),
                ("Reading where level == $v", rows.filter { Self.reading($0).level.isNaN }.map(Int64.init)),
            ]
            for (text, want) in cases {
                #expect(!want.isEmpty || text.contains(">"), "\(text): the rows hold no case")
                let got = try Self.keys(store, text, nan)
                #expect(got == want, "\(text): PostgreSQL \(got)")
                #expect(try Self.evaluated(store, graph, text, nan) == want, "\(text): evaluator")
                // SQLite compares a non-optional attribute with `=`, so a NULL `level` (where
                // pq wrote NaN, as SQLite stores it) is not found by `== $v` there.
                guard !text.contains("level") else { continue }
                let compiled = try #require(sqlite.compile(text).compiled, "\(text)")
                #expect(try sqlite.fetch(compiled, parameters: nan).map(\.id.key) == want, "\(text): SQLite")
            }
            // A NaN written by pq is stored as NULL, as SQLite stores it.
            let written = try PostgresIntrospectionTests.database("params_written", "", on: server)
            let created = try PostgresStore.create(written, schema: store.schema)
            var nanGraph = ObjectGraph(schema: store.schema)
            _ = nanGraph.insert("Reading", ["id": .int(1), "amount": .double(.nan), "level": .double(.nan)], key: 1)
            try created.insert(nanGraph)
            let stored = try #require(
                server.rows("SELECT count(*) FROM \"Reading\" WHERE amount IS NULL AND level IS NULL", database: "params_written")
            )
            #expect(stored == ["1"])
        }
    }
}
