// `^` and `~` on SQLite, which has `|` and `&` but no XOR. `a ^ b` was always
// `(a | b) - (a & b)`, which writes each operand twice: nested, the SQL doubled at
// every level, and `~` 128 times (each `~x` read as `x ^ -1`) took the fuzzer's
// input past its 10 s timeout before any depth limit could refuse it. Now `~x` is
// SQLite's own `~`, and an XOR of anything larger than a column or a value is
// `pq_xor`, which the store registers. Each is held to SQLite's own operators, and
// every query here to the evaluator.

import Foundation
import PredicateQueryExamples
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery
@testable import PredicateQuerySQLite

struct BitwiseXorTests {
    /// Users aged at Int's edges, each with one pet of a small age.
    private static func store() throws -> (SQLiteStore, ObjectGraph) {
        var graph = ObjectGraph(schema: ExampleSchemas.users)
        for (index, age) in [Int64.min, -1, 0, 1, 5, 1 << 40, .max].enumerated() {
            let user = graph.insert("User", ["name": .string("u\(index)"), "age": .int(age)])
            let pet = graph.insert("Pet", ["name": .string("p\(index)"), "age": .int(Int64(index) * 3 - 4)])
            graph.link(pet, "owner", to: user)
        }
        let store = try SQLiteStore.create(at: ":memory:", schema: graph.schema)
        try store.insert(graph)
        return (store, graph)
    }

    /// Compiles `text` and expects the evaluator's rows from the store; returns the SQL.
    @discardableResult
    private static func expectEvaluatorsRows(
        _ text: String, _ store: SQLiteStore, _ graph: ObjectGraph, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let result = store.compile(text)
        let compiled = try #require(result.compiled, "\(result.diagnostics)", sourceLocation: sourceLocation)
        let checked = try #require(result.checked, sourceLocation: sourceLocation)
        let want = try Evaluator(graph: graph).run(checked).map(\.key)
        let got = try store.fetch(compiled).map(\.id.key)
        #expect(got == want, "\(text)\n\(compiled.sql)", sourceLocation: sourceLocation)
        return compiled.sql
    }

    @Test func tildeIsSQLitesOwnNot() throws {
        let (store, graph) = try Self.store()
        let sql = try Self.expectEvaluatorsRows("User where ~age > 0 sort by age", store, graph)
        #expect(sql.contains("~t0.\"ZAGE\""), "\(sql)")
        #expect(!sql.contains("pq_xor") && !sql.contains(" | "), "\(sql)")
        // -1 on either side is the same flip; any other constant is an XOR.
        try Self.expectEvaluatorsRows("User where -1 ^ age < 0 sort by age", store, graph)
        let other = try Self.expectEvaluatorsRows("User where age ^ -2 < 0 sort by age", store, graph)
        #expect(other.contains(" | ") && !other.contains("~"), "\(other)")
        try Self.expectEvaluatorsRows("User where ~(age + 1) == -age - 2 sort by age", store, graph)
        try Self.expectEvaluatorsRows("User where pets.@sum.age ^ -1 > -3 sort by age", store, graph)
    }

    @Test func anXorOfColumnsAndValuesKeepsSQLitesOperators() throws {
        let (store, graph) = try Self.store()
        let sql = try Self.expectEvaluatorsRows("User where age ^ 5 > 3 sort by age", store, graph)
        #expect(sql.contains(" | ") && sql.contains(" & ") && !sql.contains("pq_xor"), "\(sql)")
    }

    @Test func anXorOfLargerOperandsIsPqXor() throws {
        let (store, graph) = try Self.store()
        let sql = try Self.expectEvaluatorsRows("User where (age + 1) ^ 5 > 3 sort by age", store, graph)
        #expect(sql.contains("pq_xor("), "\(sql)")
        try Self.expectEvaluatorsRows("User where (age ^ 3) ^ (age * 2) >= 0 sort by age", store, graph)
        try Self.expectEvaluatorsRows("User where pets.@sum.age ^ age != 0 sort by age", store, graph)
        try Self.expectEvaluatorsRows("Pet where (age + 1) ^ (owner.age & 7) > 1 sort by age", store, graph)
    }

    /// Nested 120 deep, `^` and `~` give SQL whose length grows with the query's,
    /// compiled well within a second (the doubling took the fuzzer's 10 s and more).
    static let nestings: [(name: String, wrap: @Sendable (String) -> String)] = [
        ("~", { "~\($0)" }),
        ("^ chain", { "(\($0) ^ 3)" }),
        ("^ of sums", { "((\($0) + 1) ^ age)" }),
    ]

    @Test(arguments: nestings.indices)
    func deepNestingStaysLinear(_ nesting: Int) throws {
        let (name, wrap) = Self.nestings[nesting]
        let (store, graph) = try Self.store()
        var lengths: [Int: Int] = [:]
        for depth in [10, 20, 120] {
            var operand = "age"
            for _ in 0..<depth { operand = wrap(operand) }
            let text = "User where \(operand) != 0"
            let clock = ContinuousClock()
            let start = clock.now
            let result = store.compile(text)
            #expect(clock.now - start < .seconds(2), "\(name) at \(depth)")
            if let compiled = result.compiled {
                lengths[depth] = compiled.sql.utf8.count
                try Self.expectEvaluatorsRows(text, store, graph)
            } else {
                // Only a depth limit may refuse it.
                let codes = Set(result.diagnostics.map(\.code))
                #expect(codes.isSubset(of: [.sqlTooDeep, .nestingTooDeep]), "\(name) at \(depth): \(codes)")
            }
        }
        let shallow = try #require(lengths[10], "\(name) at 10 was refused")
        let deeper = try #require(lengths[20], "\(name) at 20 was refused")
        // Ten more levels add about what the first ten did, not 2^10 times the text.
        #expect(deeper < shallow * 3, "\(name): \(shallow) bytes at 10, \(deeper) at 20")
    }

    /// An Int that overflowed is a Double at run time, and `&`, `|`, `^`, `~` and `%`
    /// may then meet it: the evaluator computes what SQLite does (it gave nil for the
    /// bitwise operators, and an Int remainder where SQLite's is a Double).
    @Test func anOverflowedIntMeetsBitwiseOperatorsAndRemainderAsInSQLite() throws {
        let connection = try SQLiteConnection(path: ":memory:", readOnly: false, create: true)
        try SQLiteFunctions.register(on: connection)
        let doubles = ["9.223372036854775808e18", "-9.223372036854775808e18", "1e30", "-1e30", "2.5", "-2.5", "7.0"]
        let ints: [Int64] = [0, 1, -1, 5, -6, .max, .min]
        var compared = 0
        for double in doubles {
            for int in ints {
                let a = try #require(Double(double))
                let cases: [(ArithmeticOperator, String, Value, Value)] = [
                    (.bitwiseAnd, "\(double) & \(int)", .double(a), .int(int)),
                    (.bitwiseOr, "\(int) | \(double)", .int(int), .double(a)),
                    (.bitwiseXor, "pq_xor(\(double), \(int))", .double(a), .int(int)),
                    (.bitwiseXor, "(\(double) | \(int)) - (\(double) & \(int))", .double(a), .int(int)),
                ]
                // SQLite's % converts a Double past Int's range as C does, which differs
                // by processor: only Doubles within it (and not Int.max, which % reads
                // as the Double 2^63 when the other side is a Double).
                let remainders: [(ArithmeticOperator, String, Value, Value)] =
                    abs(a) < 9.2e18 && int != .max ? [(.remainder, "\(double) % \(int)", .double(a), .int(int))] : []
                for (op, sql, lhs, rhs) in cases + remainders {
                    let statement = try connection.prepare("SELECT \(sql)")
                    #expect(try statement.step())
                    let sqlite = statement.column(0)
                    let pq = SQLiteSemantics.arithmetic(op, lhs, rhs)
                    #expect(pq == sqlite && Self.sameKind(pq, sqlite), "\(sql): pq \(pq), SQLite \(sqlite)")
                    compared += 1
                }
            }
        }
        #expect(compared == doubles.count * ints.count * 4 + 3 * (ints.count - 1))
        // And through a query: `(age + 1)` overflows for Int.max.
        let (store, graph) = try Self.store()
        for text in [
            "User where (age + 1) & 7 == 7", "User where ~(age + 1) < 0", "User where ((age - 1) % 7) / 2 > -5",
            "User where (age * 2) | 1 > 0",
        ] {
            try Self.expectEvaluatorsRows(text + " sort by age", store, graph)
        }
    }

    private static func sameKind(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int, .int), (.double, .double), (.null, .null): true
        default: false
        }
    }

    /// `pq_xor` against SQLite's `(a | b) - (a & b)` on values of every storage class,
    /// read as SQLite's bitwise operators read them: Reals truncated (and clamped past
    /// Int's range), text by its numeric prefix, NULL giving NULL.
    @Test func pqXorIsWhatSQLitesOperatorsGive() throws {
        let connection = try SQLiteConnection(path: ":memory:", readOnly: false, create: true)
        try SQLiteFunctions.register(on: connection)
        try connection.execute("CREATE TABLE v (x)")
        let values = [
            "NULL", "0", "-1", "1", "5", "9223372036854775807", "-9223372036854775808", "2.5", "-2.5", "1e30",
            "-1e30", "9.3e18", "'12'", "'12abc'", "'abc'", "' 7'", "'-3.9'", "x'01'", "x''",
        ]
        try connection.execute("INSERT INTO v VALUES " + values.map { "(\($0))" }.joined(separator: ", "))
        let statement = try connection.prepare(
            """
            SELECT count(*), sum(pq_xor(a.x, b.x) IS ((a.x | b.x) - (a.x & b.x))),
                   sum(pq_xor(a.x, b.x) IS NULL), sum(pq_xor(a.x, b.x) < 0)
            FROM v a, v b
            """)
        #expect(try statement.step())
        let counts = (0..<4).map { statement.column(Int32($0)) }
        let pairs = Int64(values.count * values.count)
        #expect(counts[0] == .int(pairs))
        #expect(counts[1] == .int(pairs), "pairs agreeing with (a | b) - (a & b): \(counts)")
        // Not vacuous: NULL with each value (both ways), and negative results, occur.
        #expect(counts[2] == .int(Int64(2 * values.count - 1)), "\(counts)")
        #expect(counts[3] != .int(0), "\(counts)")
    }
}
