// SQLite, PostgreSQL and the evaluator, three ways: for random data and random
// well-typed queries over every example schema, the rows a PostgreSQL store
// returns, in order, must be exactly the evaluator's, and SQLite's. Queries
// PostgreSQL refuses by design (`PostgreSQLSupport`) are counted by form and
// reported, never dropped silently. A deliberately broken PostgreSQL rendering is
// run through the same comparison and must be caught.
//
// The tests start a throwaway server (`PostgresTestServer`); where none can start
// they print a notice and skip. The same data goes to both stores, except that
// U+0000, which PostgreSQL's text cannot hold, is written as U+2400 (␀) in both.

import Foundation
import PredicateQueryExamples
import PredicateQueryPostgres
import PredicateQuerySQLite
import PredicateQueryStoreTestSupport
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

@Suite(.serialized)
struct PostgresDifferentialTests {
    static var casesPerSchema: Int {
        TestBudget.count("PQ_POSTGRES_DIFFERENTIAL_CASES", quick: 250, thorough: 1_000)
    }

    struct Tally {
        var compared = 0
        /// Of those compared, how many under each kind of plan.
        var comparedByPlan: [PostgresPlan: Int] = [:]
        /// Of those compared, the queries that compute a date (`d + 1h`).
        var comparedDateArithmetic = 0
        var bothFailed = 0
        var skipped = 0
        /// Queries PostgreSQL refuses, by the form named in the refusal.
        var refused: [String: Int] = [:]
        var mismatches: [String] = []
        /// Queries PostgreSQL stopped with "value out of range", by the cause the
        /// evaluator confirmed (`OutOfRangeWitness`).
        var outOfRange: [OutOfRangeWitness.Cause: Int] = [:]
        var refusedTotal: Int { refused.values.reduce(0, +) }
        var outOfRangeTotal: Int { outOfRange.values.reduce(0, +) }
    }

    @Test("PostgreSQL returns exactly the evaluator's and SQLite's rows, in order")
    func postgresAgreesWithSQLiteAndEvaluator() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try PostgresTestServer.with { server -> Tally in
            var tally = Tally()
            for seed in DifferentialInputs.seeds {
                for (index, (name, schema)) in DifferentialInputs.schemas.enumerated() {
                    let dataSeed = seed &* 1_000 &+ UInt64(index)
                    // One query in ten computes a date on the object's own dates (`d + 1e-7s > d`).
                    try run(
                        server, schema, name: name, seed: dataSeed, cases: Self.casesPerSchema, tally: &tally,
                        query: { queries, entity in
                            queries.random.chance(10) ? queries.dateQuery(for: entity) : queries.query(for: entity)
                        })
                }
            }
            return tally
        }
        guard let tally = outcome else { return }
        print(
            "differential (SQLite, PostgreSQL, evaluator): \(tally.compared) queries compared on all three (\(tally.comparedDateArithmetic) computing a date), \(tally.refusedTotal) refused by PostgreSQL, \(tally.outOfRangeTotal) stopped by PostgreSQL as out of range, \(tally.bothFailed) failed alike, \(tally.skipped) skipped; seeds \(DifferentialInputs.seeds); \((clock.now - start).formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))"
        )
        let byPlan = PostgresPlan.allCases.map { "\(tally.comparedByPlan[$0] ?? 0) \($0)" }
        print("  compared by plan: \(byPlan.joined(separator: ", "))")
        for (form, count) in tally.refused.sorted(by: { $0.value > $1.value }) { print("  refused: \(count) × \(form)") }
        for (cause, count) in tally.outOfRange.sorted(by: { $0.value > $1.value }) {
            print("  out of range (confirmed by the evaluator): \(count) × \(cause.rawValue)")
        }
        for mismatch in tally.mismatches.prefix(5) { Issue.record(Comment(rawValue: mismatch)) }
        #expect(tally.mismatches.isEmpty, "\(tally.mismatches.count) mismatches")
        // Arithmetic (date arithmetic too) and aggregates reach PostgreSQL: none is refused.
        let numericRefusals = tally.refused.keys.filter {
            $0.contains("arithmetic") || $0.contains("computed date") || $0.contains("@sum") || $0.contains("@avg")
                || $0.contains("negating") || $0.contains("bitwise") || $0.contains("??")
        }
        #expect(numericRefusals.isEmpty, "numeric forms refused: \(numericRefusals)")
        #expect(tally.comparedDateArithmetic * 50 > tally.compared, "too few queries computing a date")
        // The data's extremes make Ints leave their range, and such stops stay rare.
        for cause in [OutOfRangeWitness.Cause.intOverflow, .intSumRange] where Self.casesPerSchema >= 1_000 {
            #expect((tally.outOfRange[cause] ?? 0) > 0, "no query met: \(cause.rawValue)")
        }
        #expect(tally.outOfRangeTotal * 10 < tally.compared)
        // About half of all generated queries reach all three (the rest PostgreSQL refuses by design).
        #expect(tally.compared >= Self.casesPerSchema * 5, "too few queries compared on all three: \(tally.compared)")
        #expect(tally.skipped * 20 < tally.compared)
        // Every kind of plan answers its share of them.
        for plan in PostgresPlan.allCases {
            #expect((tally.comparedByPlan[plan] ?? 0) * 2 * PostgresPlan.allCases.count > tally.compared, "\(plan)")
        }
    }

    /// Ways to break the PostgreSQL rendering, each of which the comparison must catch.
    /// Those of numbers run on queries that compute (`RandomQueryGenerator.numericQuery`),
    /// those of dates on queries that compute a date.
    static let breakages: [(String, @Sendable (String) -> String)] = [
        (
            "a duration added to a date in whole microseconds (as timestamptz + interval rounds it)",
            {
                $0.replacingOccurrences(
                    of: #"(AS double precision\)) ([+-]) (\$[0-9]+) ELSE"#, with: "$1 $2 round($3 * 1000000) / 1000000 ELSE",
                    options: .regularExpression)
            }
        ),
        ("nil sorted last (no NULLS FIRST)", { $0.replacingOccurrences(of: " NULLS FIRST", with: "") }),
        ("== not null-safe (= for IS NOT DISTINCT FROM)", { $0.replacingOccurrences(of: "IS NOT DISTINCT FROM", with: "=") }),
        ("!= not null-safe (<> for IS DISTINCT FROM)", { $0.replacingOccurrences(of: "IS DISTINCT FROM", with: "<>") }),
        ("no exact form under NOT (COALESCE dropped)", { $0.replacingOccurrences(of: ", false)", with: ", NULL)") }),
        ("[c]/[d] tests without pq's composed form (NFD for NFC)", { $0.replacingOccurrences(of: ", NFC)", with: ", NFD)") }),
        ("like folding ASCII case (ILIKE for LIKE)", { $0.replacingOccurrences(of: " LIKE ", with: " ILIKE ") }),
        ("[d] marks replaced, not removed", { $0.replacingOccurrences(of: ", '', 'g')", with: ", '-', 'g')") }),
        (
            "Int division not truncated (numeric division)",
            { $0.replacingOccurrences(of: " / nullif(", with: " * 1.0 / nullif(") }
        ),
        (
            "division by zero not nil (NULLIF dropped)",
            { $0.replacingOccurrences(of: #"nullif\((\$[0-9]+), 0\)"#, with: "$1", options: .regularExpression) }
        ),
        ("NaN not nil", { $0.replacingOccurrences(of: "CAST('NaN' AS double precision)", with: "NULL") }),
        ("@sum of no Ints nil, not 0", { $0.replacingOccurrences(of: " AS bigint), 0) END", with: " AS bigint), NULL) END") }),
        (
            "a Double product or quotient overflowing to the wrong infinity",
            {
                $0.replacingOccurrences(
                    of: "THEN CAST('Infinity' AS double precision) ELSE -CAST('Infinity'",
                    with: "THEN -CAST('Infinity' AS double precision) ELSE CAST('Infinity'")
            }
        ),
        (
            "a Double sum overflowing to a finite value",
            { $0.replacingOccurrences(of: "THEN CAST('Infinity' AS double precision) WHEN", with: "THEN 1 WHEN") }
        ),
    ]
    static let numericBreakages = 6
    /// Those of dates, first, run on queries that compute a date (`RandomQueryGenerator.dateQuery`).
    static let dateBreakages = 1

    /// Every breakage, on one server (a server each cost a few seconds of initdb):
    /// each is run through the comparison until the first mismatch shows it was
    /// caught (up to 250 queries a schema; that is the claim, and most are caught
    /// within a few dozen queries).
    @Test("a deliberately broken PostgreSQL rendering is caught")
    func brokenRenderingIsCaught() throws {
        _ = try PostgresTestServer.with { server in
            for breakage in Self.breakages.indices {
                let (name, breaking) = Self.breakages[breakage]
                let isNumeric = breakage >= Self.breakages.count - Self.numericBreakages
                let isDate = breakage < Self.dateBreakages
                var tally = Tally()
                for (index, (schemaName, schema)) in DifferentialInputs.schemas.enumerated() where tally.mismatches.isEmpty {
                    try run(
                        server, schema, name: schemaName, seed: 7_000 &+ UInt64(index), cases: 250, tally: &tally,
                        breaking: breaking, stopAtFirstMismatch: true
                    ) { queries, entity in
                        isNumeric
                            ? queries.numericQuery(for: entity) : isDate ? queries.dateQuery(for: entity) : queries.query(for: entity)
                    }
                }
                print("broken rendering '\(name)': caught after \(tally.compared) queries compared")
                #expect(!tally.mismatches.isEmpty, "breaking the rendering (\(name)) went unnoticed")
            }
        }
    }

    static func computesDate(_ expr: TypedExpr) -> Bool {
        if case .arithmetic(_, _, _, .date) = expr { return true }
        return expr.children.contains(where: computesDate)
    }

    static func holdsNUL(_ parameters: [String: ParameterValue]) -> Bool {
        func holds(_ value: Value) -> Bool {
            if case .string(let text) = value { return text.unicodeScalars.contains("\u{0}") }
            return false
        }
        return parameters.values.contains { parameter in
            switch parameter {
            case .single(let value): holds(value)
            case .list(let values): values.contains(where: holds)
            }
        }
    }

    @Test("Ints and Doubles compare exactly on PostgreSQL, beyond 2^53 too")
    func intAndDoubleCompareExactly() throws {
        _ = try PostgresTestServer.with { server in
            var graph = ObjectGraph(schema: ExampleSchemas.users)
            for age in [9_007_199_254_740_993, 9_007_199_254_740_992, Int64.max, Int64.min, 3] {
                graph.insert("User", ["name": .string("u\(age)"), "age": .int(age)])
            }
            let queries = [
                "User where age == 9007199254740992.0", "User where age > 9007199254740992.0",
                "User where age >= 9.2233720368547758e18", "User where age < -9.2233720368547758e18",
                "User where age <= -9.2233720368547758e18", "User where age in [2.5, 3.0, 9007199254740994.0]",
                "User where age between 2.9999999999999996 and 3.0000000000000004", "User where age < 2.9999999999999996",
                "User where !(age != 9223372036854775807.0)",
            ]
            try Self.expectEvaluatorsRows(for: queries, over: graph, in: "exact", on: server)
        }
    }

    @Test("isEmpty of a to-many through a nil to-one is false on PostgreSQL, as @count == 0 is (issue 27)")
    func isEmptyThroughANilToOneIsFalse() throws {
        _ = try PostgresTestServer.with { server in
            var graph = ObjectGraph(schema: ExampleSchemas.budgets)
            let budget = graph.insert("Budget", ["name": .string("Rent"), "limit": .double(900)])
            for (note, inBudget) in [("paid", true), ("loose", false), ("also loose", false)] {
                let transaction = graph.insert(
                    "Transaction",
                    ["note": .string(note), "amount": .double(5), "date": .date(Date(timeIntervalSinceReferenceDate: 0)), "hasReceipt": .bool(false)])
                if inBudget { graph.link(transaction, "budget", to: budget) }
            }
            let queries: [(String, [Int64])] = [
                ("Transaction where budget.transactions.isEmpty", []),
                ("Transaction where !budget.transactions.isEmpty", [1, 2, 3]),
                ("Transaction where budget.transactions.filter { $0.amount > 10 }.isEmpty", [1]),
                ("Transaction where !budget.transactions.filter { $0.amount > 10 }.isEmpty", [2, 3]),
                ("Transaction where budget.transactions.@count == 0", []),
                ("Transaction where budget.transactions.isEmpty ?? true", [2, 3]),
                ("Transaction where (budget.transactions.isEmpty) == false", [1]),
                ("Transaction where budget.transactions.contains { $0.amount > 10 } ?? true", [2, 3]),
            ]
            for (text, expected) in queries {
                let query = try #require(Parser.parse(text).query, "\(text)")
                let checked = try #require(TypeChecker.check(query, schema: graph.schema).query, "\(text)")
                #expect(try Evaluator(graph: graph).run(checked).map(\.key) == expected, "\(text)")
            }
            try Self.expectEvaluatorsRows(for: queries.map(\.0), over: graph, in: "nil_owner", on: server)
        }
    }

    @Test("IN[c], IN[d] and IN[cd] select the evaluator's rows on PostgreSQL (issue 27)")
    func modifiedMembershipAgrees() throws {
        _ = try PostgresTestServer.with { server in
            var graph = ObjectGraph(schema: ExampleSchemas.budgets)
            for name in ["Café", "cafe", "CAFE", "rent", "CAFÉ", "Straße"] {
                graph.insert("Budget", ["name": .string(name), "limit": .double(1)])
            }
            let queries = [
                "Budget where name in[c] {'cafe'}", "Budget where name IN[d] {'cafe'}",
                "Budget where name in[cd] {'cafe', 'RENT'}", "Budget where !(name in[c] {'cafe', 'STRASSE'})",
                "Budget where name in[c] {'straße'}",
            ]
            for text in queries {
                let query = try #require(Parser.parse(text).query, "\(text)")
                let checked = try #require(TypeChecker.check(query, schema: graph.schema).query, "\(text)")
                #expect(try !Evaluator(graph: graph).run(checked).isEmpty, "\(text) selects nothing to compare")
            }
            try Self.expectEvaluatorsRows(for: queries, over: graph, in: "in_modified", on: server)
            // A list parameter's values would need PostgreSQL's folding: refused, with the way out.
            let store = try PostgresStore.open(server.conninfo(searchPath: "in_modified"))
            let refused = store.compile("Budget where name in[c] $names")
            #expect(refused.compiled == nil)
            let message = refused.diagnostics.map(\.message).joined(separator: "\n")
            #expect(message.contains("'in[c]' with a list parameter") && message.contains("list the values"), "\(message)")
        }
    }

    @Test("numbers at their edges give pq's answer on PostgreSQL, or an out-of-range error the evaluator confirms")
    func numbersAtTheEdges() throws {
        _ = try PostgresTestServer.with { server in
            var graph = ObjectGraph(schema: ExampleSchemas.users)
            let owners = [[Int64.max, -1, 1], [9_007_199_254_740_993, 9_007_199_254_740_993], [], [7, -3, 2], [.min, .min]]
            for (index, ages) in owners.enumerated() {
                let owner = graph.insert("User", ["name": .string("u\(index)"), "age": .int(ages.first ?? 0)])
                for age in ages {
                    let pet = graph.insert("Pet", ["name": .string("p\(age)"), "age": .int(age)])
                    graph.link(pet, "owner", to: owner)
                }
            }
            // Pets of no owner, whose ages no user's sum adds up: a grouped pass must
            // leave their group out (it once stopped the query as out of range).
            for _ in 0..<2 { _ = graph.insert("Pet", ["name": .string("stray"), "age": .int(.max - 1)]) }
            try PostgresStore.run("CREATE SCHEMA edges", at: server.conninfo())
            let store = try PostgresStore.create(server.conninfo(searchPath: "edges"), schema: ExampleSchemas.users)
            try store.insert(graph)
            // Each query with what PostgreSQL must do: answer as pq does, or stop as out of range.
            let queries: [(String, OutOfRangeWitness.Cause?)] = [
                ("User where age / 0 == nil", nil), ("User where age % 0 == nil", nil), ("User where age / -1 > 0", .intOverflow),
                ("User where age + 1 > 0", .intOverflow), ("User where -age > 0", .intOverflow),
                ("User where age % -1 == 0", nil), ("User where (age ^ 5) & 3 == 2 || ~age == -8", nil),
                ("User where age - 1 == 9007199254740992", .intOverflow), ("User where age * 1.0 == 9007199254740992.0", nil),
                ("User where (age ?? 0.5) == 9007199254740992.0", nil), ("User where age * 1e300 > 0", nil),
                ("User where age * 1e289 - 5e-324 > 0", nil),
                ("User where age * 5e-324 * 5e-324 == 0", nil), ("User where age * 1e300 - age * 1e300 == nil", nil),
                ("User where age * 1e300 * 1e300 < 0 || 5e-324 / (age * 1e300) > 0", nil),
                ("User where 1.7976931348623157e308 + age * 1e300 > 1e308 && -1.7976931348623157e308 - age < -1e308", nil),
                ("User where SUBQUERY(pets, $p, $p.age < 100 && $p.age > -100).@sum.age == 0", nil),
                ("User where SUBQUERY(pets, $p, $p.age < 100 && $p.age > -100).@sum.age == 6", nil),
                ("User where pets.@sum.age == 18014398509481986", .intSumRange),
                // pq's sum of Int.max, -1, 1 stays exact in key order (-1, then 1).
                ("User where SUBQUERY(pets, $p, $p.age > -9223372036854775808).@sum.age == 9223372036854775807", nil),
                ("User where pets.@sum.age == 9223372036854775807", .intSumRange),
                ("User where SUBQUERY(pets, $p, $p.age != -1).@sum.age > 0", .intSumRange),
                ("User where pets.@avg.age == 9007199254740992.0", nil), ("User where pets.@avg.age < 0", nil),
                ("User where pets.@count == 0 || pets.@avg.age * 2 > 1", nil),
                ("User where SUBQUERY(pets, $p, $p.age > 0 && $p.age < 9223372036854775807).@sum.age >= 100", nil),
            ]
            for (text, expected) in queries {
                let compiled = try #require(store.compile(text).compiled, "\(text)")
                let checked = try #require(compiled.query as CheckedQuery?)
                let want = try Evaluator(graph: graph).run(checked).map(\.key)
                let witnessed = OutOfRangeWitness.causes(
                    checked, graph: graph, parameters: [:], environment: QueryEnvironment())
                if text.hasPrefix("User where SUBQUERY(pets, $p, $p.age > -") { #expect(want == [1], "\(text): \(want)") }
                do {
                    let got = try store.fetch(compiled).map(\.id.key)
                    #expect(expected == nil, "\(text): expected out of range (\(String(describing: expected))), got rows")
                    #expect(got == want, "\(text): PostgreSQL \(got), evaluator \(want)\n\(compiled.sql)")
                } catch let error as StoreError {
                    #expect(error.kind == .valueOutOfRange, "\(text): \(error)")
                    let cause = OutOfRangeWitness.Cause(message: error.message)
                    #expect(
                        cause == expected && cause.map(witnessed.contains) == true, "\(text): \(error), witnessed \(witnessed)")
                }
            }
        }
    }

    @Test("an @sum PostgreSQL computes for a row no object reaches (a condition pushed down to its table) is witnessed")
    func aggregatePushedDownToItsTableIsWitnessed() throws {
        // A parent of three children, and a User nobody has as a child, whose pets'
        // ages leave Int's range part way (Int.max, then 1). `children.filter { … }`
        // reaches only the three; PostgreSQL may compute the filter's @sum for every
        // User, on the scan of the User table the join reads the children from, and
        // then stops the query as out of range (on CI, with seed 795976763, it did).
        func graph(strayAges: [Int64]) -> ObjectGraph {
            var graph = ObjectGraph(schema: ExampleSchemas.users)
            let parent = graph.insert("User", ["name": .string("parent"), "age": .int(40)])
            for index in 0..<3 {
                let child = graph.insert("User", ["name": .string("child\(index)"), "age": .int(9)])
                graph.link(parent, "children", to: child)
                let pet = graph.insert("Pet", ["name": .string("p\(index)"), "age": .int(5)])
                graph.link(pet, "owner", to: child)
            }
            let stray = graph.insert("User", ["name": .string("stray"), "age": .int(70)])
            for age in strayAges {
                let pet = graph.insert("Pet", ["name": .string("s\(age)"), "age": .int(age)])
                graph.link(pet, "owner", to: stray)
            }
            return graph
        }
        let text = "User where children.filter { v1 in v1.pets.@sum.age >= 2 }.count > 2"
        let parsed = try #require(Parser.parse(text).query)
        let checked = try #require(TypeChecker.check(parsed, schema: ExampleSchemas.users).query)
        let overflowing = graph(strayAges: [.max, 1, -5])
        #expect(try Evaluator(graph: overflowing).run(checked).map(\.key) == [1])
        let witnessed = OutOfRangeWitness.causes(
            checked, graph: overflowing, parameters: [:], environment: QueryEnvironment())
        #expect(witnessed == [.intSumRange])
        // The witness sees none where no User's pets leave the range part way.
        let inRange = graph(strayAges: [.max, -1, 1])
        #expect(
            OutOfRangeWitness.causes(checked, graph: inRange, parameters: [:], environment: QueryEnvironment()).isEmpty)
        // With a hash join, PostgreSQL scans every User for the children, the @sum's
        // condition pushed down to that scan: it stops for the cause witnessed.
        _ = try PostgresTestServer.with { server in
            try PostgresStore.run("CREATE SCHEMA pushed", at: server.conninfo())
            let hashJoins = server.conninfo(searchPath: "pushed", settings: PostgresPlan.hashJoins.settings)
            let store = try PostgresStore.create(hashJoins, schema: ExampleSchemas.users)
            try store.insert(overflowing)
            let compiled = try #require(store.compile(text).compiled)
            #expect {
                _ = try store.fetch(compiled)
            } throws: { error in
                guard let error = error as? StoreError, error.kind == .valueOutOfRange,
                    let cause = OutOfRangeWitness.Cause(message: error.message)
                else { return false }
                return witnessed.contains(cause)
            }
        }
    }

    @Test("a NaN part way (∞ − ∞ in an @avg or a sum) is nil on PostgreSQL, as in pq, never ±∞")
    func notANumberPartWayIsNil() throws {
        _ = try PostgresTestServer.with { server in
            var graph = ObjectGraph(schema: ExampleSchemas.budgets)
            // PostgreSQL sorts NaN above every number: a guard that tested the
            // magnitude of ∞ + −∞ took it for a huge value and answered +∞.
            let budgets: [(Double, [Double])] = [
                (.infinity, [.infinity, -.infinity]), (1, [.infinity]), (-.infinity, [1, 2]), (2, []),
            ]
            for (index, (limit, amounts)) in budgets.enumerated() {
                let budget = graph.insert("Budget", ["name": .string("b\(index)"), "limit": .double(limit)])
                for amount in amounts {
                    let transaction = graph.insert(
                        "Transaction",
                        [
                            "note": .string("t"), "amount": .double(amount),
                            "date": .date(Date(timeIntervalSinceReferenceDate: 0)),
                            "hasReceipt": .bool(false),
                        ])
                    graph.link(transaction, "budget", to: budget)
                }
            }
            let queries = [
                "Budget where transactions.@avg.amount >= 2.5", "Budget where !(transactions.@avg.amount > -0.0)",
                "Budget where transactions.@avg.amount == nil", "Budget where transactions.@avg.amount * 2 > 0",
                "Budget where transactions.@sum.amount + 1 > 0", "Budget where transactions.@sum.amount * 0.5 == nil",
                "Budget where (limit + limit) * 2 > 0", "Budget where (limit - limit) * 2 == nil",
                "Budget where limit * 0 + 1 > 0", "Budget where (limit - limit) / 2 < 0 || (limit - limit) - 1 > 0",
                "Budget where transactions.@avg.amount >= 0 sort by limit",
            ]
            try Self.expectEvaluatorsRows(for: queries, over: graph, in: "nans", on: server)
        }
    }

    /// Stores `graph` in a new PostgreSQL schema `namespace` and expects each query
    /// to return the evaluator's rows, in its order.
    private static func expectEvaluatorsRows(
        for queries: [String], over graph: ObjectGraph, in namespace: String, on server: PostgresTestServer
    ) throws {
        try PostgresStore.run("CREATE SCHEMA \(namespace)", at: server.conninfo())
        let store = try PostgresStore.create(server.conninfo(searchPath: namespace), schema: graph.schema)
        try store.insert(graph)
        for text in queries {
            let compiled = try #require(store.compile(text).compiled, "\(text)")
            let checked = try #require(compiled.query as CheckedQuery?)
            let want = try Evaluator(graph: graph).run(checked).map(\.key)
            let got = try store.fetch(compiled).map(\.id.key)
            #expect(got == want, "\(text): PostgreSQL \(got), evaluator \(want)\n\(compiled.sql)")
        }
    }

    @Test("a database's narrower number columns compute as pq's Int and Double")
    func narrowerColumnsAreWidened() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStore.run("CREATE SCHEMA narrow", at: server.conninfo())
            try PostgresStore.run(
                """
                CREATE TABLE narrow.budgets (id bigint PRIMARY KEY, small integer NOT NULL, tiny smallint NOT NULL, price numeric NOT NULL);
                INSERT INTO narrow.budgets VALUES (1, 2147483647, 32767, 0.1), (2, -2147483648, -32768, 2.5), (3, 5, 7, 1e20);
                """, at: server.conninfo())
            let store = try PostgresStore.open(server.conninfo(searchPath: "narrow"))
            let entity = try #require(store.schema.entities.first?.name)
            // In Int64 and Double, as pq computes; in integer, smallint and numeric the
            // first three would overflow and the last two would be exact.
            let cases: [(String, [Int64])] = [
                ("small + small > 0", [1, 3]), ("-small > 0", [2]), ("tiny * tiny > 1000000", [1, 2]),
                ("price + price + price == 0.3", []), ("price + price + price != 0.3", [1, 2, 3]),
                ("small / 2 == 1073741823", [1]),
            ]
            for (predicate, want) in cases {
                let text = "\(entity) where \(predicate)"
                let compiled = try #require(store.compile(text).compiled, "\(text)")
                let got = try store.fetch(compiled).map(\.id.key)
                #expect(got == want, "\(text): \(got)\n\(compiled.sql)")
            }
        }
    }

    /// The graph with U+0000 written as U+2400 in every string, for both stores.
    static func withoutNUL(_ graph: ObjectGraph) -> ObjectGraph {
        var cleaned = graph
        for (id, object) in graph.objects {
            for (attribute, value) in object.values {
                if case .string(let text) = value, text.unicodeScalars.contains("\u{0}") {
                    cleaned.set(attribute, of: id, to: .string(text.replacingOccurrences(of: "\u{0}", with: "\u{2400}")))
                }
            }
        }
        return cleaned
    }

    private func run(
        _ server: PostgresTestServer, _ schema: Schema, name: String, seed: UInt64, cases: Int, tally: inout Tally,
        breaking: ((String) -> String)? = nil, stopAtFirstMismatch: Bool = false,
        query: (inout RandomQueryGenerator, Entity) -> String = { queries, entity in queries.query(for: entity) }
    ) throws {
        var graphs = RandomGraphGenerator(schema: schema, seed: seed)
        let graph = Self.withoutNUL(graphs.graph())
        let sqlite = try SQLiteStore.create(at: ":memory:", schema: schema, layout: .plain)
        try sqlite.insert(graph)
        let namespace = "d\(seed)_\(breaking == nil ? "ok" : "broken")_\(UInt32.random(in: 0...UInt32.max))"
        try PostgresStore.run("CREATE SCHEMA \(namespace)", at: server.conninfo())
        defer { try? PostgresStore.run("DROP SCHEMA \(namespace) CASCADE", at: server.conninfo()) }
        let created = try PostgresStore.create(server.conninfo(searchPath: namespace), schema: schema)
        try created.insert(graph)
        // Each query under one kind of plan, in turn (`PostgresPlan`).
        let plans = try PostgresPlan.allCases.map { plan in
            plan == .ownChoice
                ? created : try PostgresStore.open(server.conninfo(searchPath: namespace, settings: plan.settings))
        }
        var queries = RandomQueryGenerator(schema: schema, seed: seed ^ 0x5151)
        for caseIndex in 0..<cases {
            if stopAtFirstMismatch, !tally.mismatches.isEmpty { break }
            guard let entity = schema.entities.randomElement(using: &queries.random) else { continue }
            let text = query(&queries, entity)
            let plan = PostgresPlan.allCases[caseIndex % plans.count]
            let postgres = plans[caseIndex % plans.count]
            let result = QueryCompiler.compile(text, schema: schema, mapping: sqlite.mapping)
            guard let compiled = result.compiled, let checked = result.checked else {
                tally.skipped += 1
                continue
            }
            let onPostgres = QueryCompiler.compile(text, schema: schema, mapping: postgres.mapping)
            guard var postgresQuery = onPostgres.compiled else {
                let refusal = onPostgres.diagnostics.first { $0.code == .unsupportedByDatabase }
                guard let refusal else {
                    tally.mismatches.append("seed \(seed), \(name), case \(caseIndex): PostgreSQL lowering failed:\n\(text)")
                    continue
                }
                let form = refusal.message.components(separatedBy: " as pq does").first ?? refusal.message
                tally.refused[form.replacingOccurrences(of: "PostgreSQL cannot answer ", with: ""), default: 0] += 1
                continue
            }
            if let breaking { postgresQuery.sql = breaking(postgresQuery.sql) }
            let parameters = queries.parameters
            let environment = ValuePools.environment
            let expected = Result { try Evaluator(graph: graph, parameters: parameters, environment: environment).run(checked) }
            let fromSQLite = Result { try sqlite.fetch(compiled, parameters: parameters, environment: environment).map(\.id) }
            let fromPostgres = Result {
                try postgres.fetch(postgresQuery, parameters: parameters, environment: environment).map(\.id)
            }
            switch (expected, fromSQLite, fromPostgres) {
            case (.success(let want), .success(let sqliteRows), .success(let postgresRows)):
                tally.compared += 1
                tally.comparedByPlan[plan, default: 0] += 1
                if let predicate = checked.predicate, Self.computesDate(predicate) { tally.comparedDateArithmetic += 1 }
                if want.map(\.key) != postgresRows.map(\.key) || want.map(\.key) != sqliteRows.map(\.key) {
                    tally.mismatches.append(
                        """
                        seed \(seed), \(name), case \(caseIndex), plan \(plan):
                        \(text)
                        parameters: \(parameters)
                        evaluator:  \(want.map(\.description))
                        SQLite:     \(sqliteRows.map(\.description))
                        PostgreSQL: \(postgresRows.map(\.description))
                        SQL: \(postgresQuery.sql)
                        """)
                }
            case (.failure, .failure, .failure):
                tally.bothFailed += 1
            case (.success, .success, .failure(let error as StoreError)) where error.kind == .valueOutOfRange:
                // Honest only where pq's evaluator meets a value PostgreSQL cannot give.
                let witnessed = OutOfRangeWitness.causes(
                    checked, graph: graph, parameters: parameters, environment: environment)
                if let cause = OutOfRangeWitness.Cause(message: error.message), witnessed.contains(cause) {
                    tally.outOfRange[cause, default: 0] += 1
                } else {
                    tally.mismatches.append(
                        "seed \(seed), \(name), case \(caseIndex), plan \(plan): out of range with no such value in pq's evaluation (\(witnessed)):\n\(text)\n\(error)\nSQL: \(postgresQuery.sql)"
                    )
                }
            case (.success, .success, .failure(let error))
            where "\(error)".contains("U+0000") && Self.holdsNUL(parameters):
                // A parameter's value is known only when the query runs: refused then.
                tally.refused["a parameter holding U+0000 (refused when bound)", default: 0] += 1
            case (.success, .success, .failure(let error)) where "\(error)".contains("PostgreSQL cannot match"):
                // A pattern given as a parameter is translated when bound, and refused then.
                let construct =
                    "\(error)".components(separatedBy: "it has ").dropFirst().first?
                    .components(separatedBy: " (").first ?? "?"
                tally.refused["'matches' with \(construct) in a parameter (refused when bound)", default: 0] += 1
            default:
                tally.mismatches.append(
                    """
                    seed \(seed), \(name), case \(caseIndex), plan \(plan): not all failed alike
                    \(text)
                    evaluator: \(expected.map(\.count)), SQLite: \(fromSQLite.map(\.count)), PostgreSQL: \(fromPostgres.map(\.count))
                    SQL: \(postgresQuery.sql)
                    """)
            }
        }
    }
}
