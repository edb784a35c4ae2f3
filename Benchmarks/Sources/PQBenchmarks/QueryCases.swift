// The queries, each written four ways: pq text; the SQL a careful engineer would
// write by hand; Foundation's #Predicate over objects in memory; GRDB's query
// interface. Each way materialises its rows (pq's Row, a struct, the objects, a
// GRDB record) and returns their keys, so a run can check all four agree.

import Foundation
import GRDB
import PredicateQuery
import PredicateQueryExamples

/// One benchmark query.
struct QueryCase {
    var name: String
    /// The query in pq's language.
    var pq: String
    var pqParameters: [String: ParameterValue] = [:]
    /// The hand-written SQL, run through the C API and shown in the report.
    var sql: String
    var arguments: [SQLArgument]
    /// The struct its rows decode into.
    var rows: HandWrittenRows
    var grdb: (Database) throws -> [Int64]
    var inMemory: (InMemoryObjects) throws -> [Int64]
    /// Whether the order of the rows is part of the answer: always, as pq returns
    /// objects in key order when a query does not sort them, and every approach
    /// is held to the same answer (the hand-written SQL and GRDB order by key too).
    var isOrdered = true
    /// How the in-memory version filters, when #Predicate cannot express the query.
    var inMemoryNote: String?
}

extension QueryCase {
    /// A budget name the generator writes: "<word> <n>".
    static func budgetName(_ number: Int) -> String {
        DataGenerator.words[(number * 7) % 16] + " \(number)"
    }

    /// The queries, with values chosen so each selects a modest share of `scale` budgets.
    static func all(scale: Int) -> [QueryCase] {
        let limit = 4980.0
        let fragment = "ar 77"
        let prefix = String(budgetName(1234).dropLast())  // e.g. "Tundra 123": 1230…1239, 12300…
        // The smallest string above every name with the prefix: its last digit plus one.
        let next = prefix.unicodeScalars.last.flatMap { UnicodeScalar($0.value + 1) } ?? "~"
        let upper = prefix.dropLast() + String(next)
        let named = budgetName(max(1, scale / 2))
        let amount = 999.9
        let count = 14
        let sum = 9000.0
        let budgetSQL = "SELECT \(BudgetRow.columns) FROM \"ZBUDGET\""
        let transactionSQL = "SELECT \(TransactionRow.columns) FROM \"ZTRANSACTION\""

        return [
            QueryCase(
                name: "comparison", pq: "Budget where limit > \(Int(limit))",
                sql: "\(budgetSQL) WHERE \"ZLIMIT\" > ?1 ORDER BY \"Z_PK\"",
                arguments: [.double(limit)], rows: .budgets,
                grdb: { db in
                    try BudgetRecord.filter(BudgetRecord.Columns.limit > limit)
                        .order(BudgetRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Budget> { $0.limit > limit }
                    return try objects.budgets.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "contains", pq: "Budget where name contains '\(fragment)'",
                sql: "\(budgetSQL) WHERE instr(\"ZNAME\", ?1) > 0 ORDER BY \"Z_PK\"",
                arguments: [.text(fragment)], rows: .budgets,
                grdb: { db in
                    try BudgetRecord.filter(literal: "instr(\(BudgetRecord.Columns.name), \(fragment)) > 0")
                        .order(BudgetRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Budget> { $0.name.contains(fragment) }
                    return try objects.budgets.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "prefix (indexed)", pq: "Budget where name beginswith '\(prefix)'",
                sql: "\(budgetSQL) WHERE \"ZNAME\" >= ?1 AND \"ZNAME\" < ?2 ORDER BY \"Z_PK\"",
                arguments: [.text(prefix), .text(String(upper))], rows: .budgets,
                grdb: { db in
                    try BudgetRecord.filter(BudgetRecord.Columns.name >= prefix && BudgetRecord.Columns.name < String(upper))
                        .order(BudgetRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Budget> { $0.name.starts(with: prefix) }
                    return try objects.budgets.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "enum equality", pq: "Movie where genre == .kids",
                sql: "SELECT \(MovieRow.columns) FROM \"ZMOVIE\" WHERE \"ZGENRE\" = ?1 ORDER BY \"Z_PK\"",
                arguments: [.int(2)], rows: .movies,
                grdb: { db in
                    try MovieRecord.filter(MovieRecord.Columns.genre == Genre.kids.rawValue)
                        .order(MovieRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let kids = Genre.kids
                    let predicate = #Predicate<Movie> { $0.genre == kids }
                    return try objects.movies.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "optional to-one path", pq: "Transaction where budget?.name == '\(named)'",
                sql: "SELECT \(TransactionRow.columns.replacingOccurrences(of: "\"Z", with: "t.\"Z")) FROM \"ZTRANSACTION\" t"
                    + " JOIN \"ZBUDGET\" b ON b.\"Z_PK\" = t.\"ZBUDGET\" WHERE b.\"ZNAME\" = ?1 ORDER BY t.\"Z_PK\"",
                arguments: [.text(named)], rows: .transactions,
                grdb: { db in
                    try TransactionRecord.joining(required: TransactionRecord.budget.filter(BudgetRecord.Columns.name == named))
                        .order(TransactionRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Transaction> { $0.budget?.name == named }
                    return try objects.transactions.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "any over to-many", pq: "Budget where any transactions.amount > \(amount)",
                // Faster here than a correlated EXISTS (1.2 s): one pass over the transactions.
                sql:
                    "\(budgetSQL) WHERE \"Z_PK\" IN (SELECT \"ZBUDGET\" FROM \"ZTRANSACTION\" WHERE \"ZAMOUNT\" > ?1) ORDER BY \"Z_PK\"",
                arguments: [.double(amount)], rows: .budgets,
                grdb: { db in
                    let budget = TableAlias<BudgetRecord>()
                    let large = TransactionRecord.filter(
                        TransactionRecord.Columns.budget == budget[BudgetRecord.Columns.id]
                            && TransactionRecord.Columns.amount > amount)
                    return try BudgetRecord.aliased(budget).filter(large.exists())
                        .order(budget[BudgetRecord.Columns.id]).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Budget> { $0.transactions.contains { $0.amount > amount } }
                    return try objects.budgets.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "@count", pq: "Budget where transactions.@count > \(count)",
                // Grouped once rather than counted per budget (right for "> n" only: it never sees empty budgets).
                sql:
                    "\(budgetSQL) WHERE \"Z_PK\" IN (SELECT \"ZBUDGET\" FROM \"ZTRANSACTION\" GROUP BY \"ZBUDGET\" HAVING count(*) > ?1) ORDER BY \"Z_PK\"",
                arguments: [.int(Int64(count))], rows: .budgets,
                grdb: { db in
                    try BudgetRecord.having(BudgetRecord.transactions.count > count)
                        .order(BudgetRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Budget> { $0.transactions.count > count }
                    return try objects.budgets.filter { try predicate.evaluate($0) }.map(objects.key)
                }),
            QueryCase(
                name: "@sum", pq: "Budget where transactions.@sum.amount > \(Int(sum))",
                sql:
                    "\(budgetSQL) WHERE \"Z_PK\" IN (SELECT \"ZBUDGET\" FROM \"ZTRANSACTION\" GROUP BY \"ZBUDGET\" HAVING total(\"ZAMOUNT\") > ?1) ORDER BY \"Z_PK\"",
                arguments: [.double(sum)], rows: .budgets,
                grdb: { db in
                    try BudgetRecord.having(BudgetRecord.transactions.sum(TransactionRecord.Columns.amount) > sum)
                        .order(BudgetRecord.Columns.id).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    // #Predicate has no sum (no reduce, no map); the closure Swift code would use instead.
                    objects.budgets.filter { $0.transactions.reduce(0) { $0 + $1.amount } > sum }.map(objects.key)
                }, inMemoryNote: "#Predicate cannot sum; a Swift closure with reduce"),
            QueryCase(
                name: "sort + limit", pq: "Transaction where hasReceipt == true sort by date desc limit 20",
                // With pq's tie-break by key, for the same answer whatever the data. GRDB's query
                // has none: with one, SQLite plans GRDB's SQL (`= ?`, `LIMIT 20`) as a full scan.
                sql: "\(transactionSQL) WHERE \"ZHASRECEIPT\" = 1 ORDER BY \"ZDATE\" DESC, \"Z_PK\" LIMIT 20",
                arguments: [], rows: .transactions,
                grdb: { db in
                    try TransactionRecord.filter(TransactionRecord.Columns.hasReceipt == true)
                        .order(TransactionRecord.Columns.date.desc).limit(20).fetchAll(db).map(\.id)
                },
                inMemory: { objects in
                    let predicate = #Predicate<Transaction> { $0.hasReceipt }
                    let matching = try objects.transactions.filter { try predicate.evaluate($0) }
                    return matching.sorted(using: SortDescriptor(\Transaction.date, order: .reverse)).prefix(20).map(objects.key)
                }),
        ]
    }
}
