// A long `||` chain of equalities on one path (`name == 'a' || name == 'b' || …`,
// a list of names pasted as a predicate) against the hand-written `IN` list, rows
// and count (issue 27). pq lowers the chain as one `IN` list; before, it was one
// `=` per value joined by OR (balanced, as SQLite's expression depth is 1000),
// whose row query (ordered by key) SQLite ran as a scan of the whole table while
// the count used the name index. Built against pq before the change, the "pq" side
// measures that.
//
// Sides, interleaved (each repetition runs every side once, in rotating order),
// after checking that all select the same keys:
// - pq: `SQLiteStore.compile` of the chain (found compiled after the first run),
//   then `fetch` into `Row`s, and `count`;
// - pq, `in [...]`: the same values written as pq's own `in` list;
// - hand-written IN: `SELECT … WHERE "ZNAME" IN (?1, …) ORDER BY "Z_PK"` through the
//   sqlite3 C API on pq's connection, rows decoded into structs; `count(*)` likewise.

import Foundation
import GRDBSQLite
import PredicateQuery
import PredicateQuerySQLite

public struct EqualityChainMeasurement: Sendable {
    public var values: Int
    public var rows: Int
    public var textBytes: Int
    /// Medians of the row queries, by side.
    public var rowTimes: [String: Duration]
    /// Medians of the counts, by side.
    public var countTimes: [String: Duration]
}

public enum EqualityChainBenchmark {
    public static let sides = ["pq", "pq, in [...]", "hand-written IN"]

    /// The values of a chain of `count`: names of budgets (every other one of the
    /// first `2 * count / 3`, spread over the table) and names no budget has.
    static func values(count: Int, budgets: Int) -> [String] {
        let words = DataGenerator.words
        let present = count / 3
        let step = max(1, budgets / max(present, 1))
        var names = (0..<present).map { index -> String in
            let i = 1 + index * step
            return "\(words[(i * 7) % 16]) \(i)"
        }
        names += (0..<(count - present)).map { "Nobody \($0)" }
        return names
    }

    public static func run(
        storeAt path: String, sizes: [Int], repetitions: Int, log: (String) -> Void
    ) throws -> [EqualityChainMeasurement] {
        let store = try SQLiteStore.open(at: path, readOnly: true)
        let budgets = try store.withUnsafeSQLiteHandle { db -> Int in
            let statement = try RawStatement(db, #"SELECT count(*) FROM "ZBUDGET""#, [])
            _ = try statement.step()
            return Int(statement.int(0))
        }
        var results: [EqualityChainMeasurement] = []
        for size in sizes {
            let names = values(count: size, budgets: budgets)
            let quoted = names.map { "'\($0)'" }
            let chain = "Budget where " + quoted.map { "name == \($0)" }.joined(separator: " || ")
            let list = "Budget where name in [" + quoted.joined(separator: ", ") + "]"
            let arguments = names.map { SQLArgument.text($0) }
            let placeholders = (1...size).map { "?\($0)" }
            let inSQL =
                "SELECT \(BudgetRow.columns) FROM \"ZBUDGET\" WHERE \"ZNAME\" IN (\(placeholders.joined(separator: ", "))) ORDER BY \"Z_PK\""
            let inCount = "SELECT count(*) FROM \"ZBUDGET\" WHERE \"ZNAME\" IN (\(placeholders.joined(separator: ", ")))"

            func pqRows(_ text: String) throws -> [Int64] {
                guard let compiled = store.compile(text).compiled else {
                    throw BenchmarkError("does not compile: \(text.prefix(80))")
                }
                return try store.fetch(compiled).map(\.id.key)
            }
            func pqCount(_ text: String) throws -> Int64 {
                guard let compiled = store.compile(text).compiled else { throw BenchmarkError("does not compile") }
                return try store.count(compiled)
            }
            func sqlRows(_ sql: String) throws -> [Int64] {
                try store.withUnsafeSQLiteHandle { db in
                    let statement = try RawStatement(db, sql, arguments)
                    var keys: [Int64] = []
                    while try statement.step() { keys.append(BudgetRow(statement).id) }
                    return keys
                }
            }
            func sqlCount(_ sql: String) throws -> Int64 {
                try store.withUnsafeSQLiteHandle { db in
                    let statement = try RawStatement(db, sql, arguments)
                    _ = try statement.step()
                    return statement.int(0)
                }
            }
            let rowSides: [(String, () throws -> [Int64])] = [
                ("pq", { try pqRows(chain) }), ("pq, in [...]", { try pqRows(list) }),
                ("hand-written IN", { try sqlRows(inSQL) }),
            ]
            let countSides: [(String, () throws -> Int64)] = [
                ("pq", { try pqCount(chain) }), ("pq, in [...]", { try pqCount(list) }),
                ("hand-written IN", { try sqlCount(inCount) }),
            ]
            log("chain of \(size) equalities (\(chain.utf8.count) bytes): checking that every side agrees")
            let expected = try rowSides[2].1()
            for (name, side) in rowSides {
                let keys = try side()
                guard keys == expected else { throw BenchmarkError("\(name): \(keys.count) rows, not \(expected.count)") }
            }
            for (name, side) in countSides {
                let count = try side()
                guard count == Int64(expected.count) else {
                    throw BenchmarkError("\(name): count \(count), not \(expected.count)")
                }
            }
            var rowSamples: [String: [Duration]] = [:]
            var countSamples: [String: [Duration]] = [:]
            for repetition in 0..<repetitions {
                for offset in 0..<rowSides.count {
                    let (name, side) = rowSides[(repetition + offset) % rowSides.count]
                    rowSamples[name, default: []].append(try Stopwatch.time(side).0)
                    let (countName, countSide) = countSides[(repetition + offset) % countSides.count]
                    countSamples[countName, default: []].append(try Stopwatch.time(countSide).0)
                }
                log("chain of \(size): repetition \(repetition + 1) of \(repetitions)")
            }
            results.append(
                EqualityChainMeasurement(
                    values: size, rows: expected.count, textBytes: chain.utf8.count,
                    rowTimes: rowSamples.mapValues(Stopwatch.median), countTimes: countSamples.mapValues(Stopwatch.median)))
        }
        return results
    }

    /// The results as a Markdown table.
    public static func report(_ results: [EqualityChainMeasurement]) -> String {
        var lines = [
            "| values | text | rows | query | " + sides.joined(separator: " | ") + " | pq / hand-written IN |",
            "|---:|---:|---:|---|" + String(repeating: "---:|", count: sides.count) + "---:|",
        ]
        for result in results {
            for (kind, times) in [("rows", result.rowTimes), ("count", result.countTimes)] {
                let cells = sides.map { times[$0]?.formatted ?? "" }
                let ratio = (times["pq"]?.seconds ?? 0) / max(times["hand-written IN"]?.seconds ?? 1, 1e-12)
                lines.append(
                    "| \(result.values) | \(result.textBytes / 1024) KB | \(result.rows) | \(kind) | "
                        + cells.joined(separator: " | ") + " | " + String(format: "%.2f×", ratio) + " |")
            }
        }
        return lines.joined(separator: "\n")
    }
}
