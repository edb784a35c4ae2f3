// Query cost end to end: for each case, pq as an app runs a query again (the
// store's compiled query + execute + decode rows into structs), pq at its
// simplest (compile + execute + build `Row`s), the hand-written SQL on the same
// connection, GRDB on its own read-only connection to the same file, and
// #Predicate over objects loaded into memory.
// Runs are interleaved (each repetition runs every approach once, in rotating
// order) and every approach's rows are checked against pq's before timing.

import Foundation
import GRDB
import PredicateQuery
import PredicateQuerySQLite

/// The medians of one query case.
public struct QueryMeasurement: Sendable {
    public var name: String
    public var pq: String
    public var sql: String
    public var rows: Int
    public var pqTime: Duration
    public var handWrittenTime: Duration
    public var grdbTime: Duration
    /// pq at its simplest: `QueryCompiler.compile` on every run, and `Row`s.
    public var pqSimplestTime: Duration
    /// Filtering the loaded objects (the load is `QueryReport.inMemoryLoad`).
    public var inMemoryFilterTime: Duration
    public var inMemoryNote: String?
}

/// Everything one run measured.
public struct QueryReport: Sendable {
    public var budgets: Int
    public var transactions: Int
    public var repetitions: Int
    public var inMemoryLoad: Duration
    public var measurements: [QueryMeasurement]
}

public enum QueryBenchmark {
    /// Measures every case on the store at `path` (made by `DataGenerator`).
    public static func run(
        storeAt path: String, repetitions: Int, inMemoryRepetitions: Int, only: String? = nil, log: (String) -> Void
    ) throws -> QueryReport {
        let store = try SQLiteStore.open(at: path, readOnly: true)
        var configuration = Configuration()
        configuration.readonly = true
        let grdb = try DatabaseQueue(path: path, configuration: configuration)
        let (budgets, transactions) = try store.withUnsafeSQLiteHandle { db in
            (try count(db, "ZBUDGET"), try count(db, "ZTRANSACTION"))
        }
        let wanted = only?.split(separator: ",").map(String.init)
        let cases = QueryCase.all(scale: budgets).filter { queryCase in
            wanted.map { $0.contains { queryCase.name.contains($0) } } ?? true
        }

        /// pq as an app runs a query it ran before: the store keeps the compiled
        /// query, and rows decode into the app's structs.
        func pq(_ queryCase: QueryCase) throws -> [Int64] {
            try queryCase.runPQRecords(store, try compiled(queryCase, store.compile(queryCase.pq)))
        }
        /// pq at its simplest: the text compiled every time, and generic `Row`s.
        func pqSimplest(_ queryCase: QueryCase) throws -> [Int64] {
            let result = QueryCompiler.compile(queryCase.pq, schema: store.schema, mapping: store.mapping)
            return try store.fetch(try compiled(queryCase, result), parameters: queryCase.pqParameters).map(\.id.key)
        }
        func compiled(_ queryCase: QueryCase, _ result: CompileResult) throws -> CompiledQuery {
            guard let compiled = result.compiled else {
                throw BenchmarkError("pq cannot compile \(queryCase.pq): \(result.diagnostics.map(\.message))")
            }
            return compiled
        }

        var measurements: [QueryMeasurement] = []
        for queryCase in cases {
            log("\(queryCase.name): \(queryCase.pq)")
            let approaches: [(String, () throws -> [Int64])] = [
                ("pq", { try pq(queryCase) }),
                ("hand-written SQL", { try store.withUnsafeSQLiteHandle { try queryCase.runHandWritten($0) } }),
                ("GRDB", { try grdb.read { try queryCase.grdb($0) } }),
                ("pq, simplest", { try pqSimplest(queryCase) }),
            ]
            // Warm-up runs, which also check that every approach selects the same rows.
            let expected = try pq(queryCase)
            for (name, run) in approaches.dropFirst() {
                try check(try run(), against: expected, ordered: queryCase.isOrdered, what: "\(name) for \(queryCase.name)")
            }
            var samples = Array(repeating: [Duration](), count: approaches.count)
            for repetition in 0..<repetitions {
                for offset in 0..<approaches.count {
                    let index = (repetition + offset) % approaches.count
                    let (duration, _) = try Stopwatch.time(approaches[index].1)
                    samples[index].append(duration)
                }
            }
            measurements.append(
                QueryMeasurement(
                    name: queryCase.name, pq: queryCase.pq, sql: queryCase.sql, rows: expected.count,
                    pqTime: Stopwatch.median(samples[0]), handWrittenTime: Stopwatch.median(samples[1]),
                    grdbTime: Stopwatch.median(samples[2]), pqSimplestTime: Stopwatch.median(samples[3]),
                    inMemoryFilterTime: .zero, inMemoryNote: queryCase.inMemoryNote))
        }

        log("loading every budget, transaction and movie into objects")
        let (load, objects) = try Stopwatch.time { try store.withUnsafeSQLiteHandle { try InMemoryObjects($0) } }
        log("loaded in \(load.formatted)")
        objects.recordKeys()
        for (index, queryCase) in cases.enumerated() {
            log("\(queryCase.name) in memory")
            try check(
                try queryCase.inMemory(objects), against: try pq(queryCase), ordered: queryCase.isOrdered,
                what: "#Predicate for \(queryCase.name)")
            var samples: [Duration] = []
            for _ in 0..<inMemoryRepetitions {
                samples.append(try Stopwatch.time { try queryCase.inMemory(objects) }.0)
            }
            measurements[index].inMemoryFilterTime = Stopwatch.median(samples)
        }
        return QueryReport(
            budgets: budgets, transactions: transactions, repetitions: repetitions, inMemoryLoad: load,
            measurements: measurements)
    }

    /// Runs only pq's side of the cases matching `only`, `repetitions` times each
    /// (for a profiler), and returns the median of all runs.
    public static func profile(storeAt path: String, only: String, repetitions: Int) throws -> Duration {
        let store = try SQLiteStore.open(at: path, readOnly: true)
        let wanted = only.split(separator: ",").map(String.init)
        let budgets = try store.withUnsafeSQLiteHandle { try count($0, "ZBUDGET") }
        var samples: [Duration] = []
        for queryCase in QueryCase.all(scale: budgets) where wanted.contains(where: { queryCase.name.contains($0) }) {
            for _ in 0..<repetitions {
                samples.append(
                    try Stopwatch.time {
                        let result = store.compile(queryCase.pq)
                        guard let compiled = result.compiled else { throw BenchmarkError("pq cannot compile \(queryCase.pq)") }
                        return try queryCase.runPQRecords(store, compiled).count
                    }.0)
            }
        }
        return Stopwatch.median(samples)
    }

    private static func count(_ db: OpaquePointer, _ table: String) throws -> Int {
        let statement = try RawStatement(db, "SELECT count(*) FROM \"\(table)\"", [])
        _ = try statement.step()
        return Int(statement.int(0))
    }

    private static func check(_ keys: [Int64], against expected: [Int64], ordered: Bool, what: String) throws {
        let same = ordered ? keys == expected : keys.sorted() == expected.sorted()
        guard same else {
            throw BenchmarkError("\(what) selected \(keys.count) rows, pq \(expected.count): the approaches disagree")
        }
    }
}
