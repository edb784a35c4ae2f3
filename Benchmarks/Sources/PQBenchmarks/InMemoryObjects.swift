// The in-memory baseline: the store loaded into Swift objects (pq's example model
// classes, which Foundation's #Predicate evaluates), as an app that fetches
// everything and filters in Swift would hold them.

import Foundation
import PredicateQueryExamples

/// Every budget, transaction and movie of a store, as objects.
final class InMemoryObjects {
    var budgets: [Budget] = []
    var transactions: [Transaction] = []
    var movies: [Movie] = []
    /// The store's key of each object, for checking results (filled after loading).
    private var keys: [ObjectIdentifier: Int64] = [:]

    /// Loads budgets with their transactions, and movies, through hand-written SQL.
    init(_ database: OpaquePointer) throws {
        var budgetsByKey: [Int64: Budget] = [:]
        let budgetRows = try RawStatement(database, #"SELECT "Z_PK", "ZNAME", "ZLIMIT" FROM "ZBUDGET" ORDER BY "Z_PK""#, [])
        while try budgetRows.step() {
            let budget = Budget(name: budgetRows.text(1), limit: budgetRows.double(2))
            budgets.append(budget)
            budgetsByKey[budgetRows.int(0)] = budget
        }
        let transactionRows = try RawStatement(
            database, #"SELECT "Z_PK", "ZNOTE", "ZAMOUNT", "ZDATE", "ZHASRECEIPT", "ZBUDGET" FROM "ZTRANSACTION" ORDER BY "Z_PK""#, [])
        while try transactionRows.step() {
            let budget = transactionRows.optionalInt(5).flatMap { budgetsByKey[$0] }
            let transaction = Transaction(
                note: transactionRows.text(1), amount: transactionRows.double(2),
                date: Date(timeIntervalSinceReferenceDate: transactionRows.double(3)), hasReceipt: transactionRows.int(4) != 0,
                budget: budget)
            budget?.transactions.append(transaction)
            transactions.append(transaction)
        }
        let movieRows = try RawStatement(database, #"SELECT "Z_PK", "ZNAME", "ZGENRE" FROM "ZMOVIE" ORDER BY "Z_PK""#, [])
        while try movieRows.step() {
            movies.append(Movie(name: movieRows.text(1), genre: Genre(rawValue: Int(movieRows.int(2))) ?? .action))
        }
    }

    /// Records each object's key; objects were loaded in key order, keys from 1.
    func recordKeys() {
        for (index, budget) in budgets.enumerated() { keys[ObjectIdentifier(budget)] = Int64(index + 1) }
        for (index, transaction) in transactions.enumerated() { keys[ObjectIdentifier(transaction)] = Int64(index + 1) }
        for (index, movie) in movies.enumerated() { keys[ObjectIdentifier(movie)] = Int64(index + 1) }
    }

    func key(_ object: AnyObject) -> Int64 { keys[ObjectIdentifier(object)] ?? -1 }
}
