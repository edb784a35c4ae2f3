// The hand-written baseline: SQL text a careful engineer would write, run through
// the sqlite3 C API on pq's own connection, rows decoded straight into structs.

import Foundation
import GRDBSQLite

/// A value to bind to a hand-written statement.
public enum SQLArgument: Sendable {
    case int(Int64)
    case double(Double)
    case text(String)
}

/// One prepared statement on a raw connection.
struct RawStatement: ~Copyable {
    private let handle: OpaquePointer

    init(_ database: OpaquePointer, _ sql: String, _ arguments: [SQLArgument]) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError("cannot prepare \(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
        handle = statement
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .int(let value): sqlite3_bind_int64(handle, position, value)
            case .double(let value): sqlite3_bind_double(handle, position, value)
            case .text(let value): sqlite3_bind_text(handle, position, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
    }

    deinit { sqlite3_finalize(handle) }

    /// Steps to the next row; false when there are no more.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw BenchmarkError("step failed: \(String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))")
        }
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func optionalInt(_ column: Int32) -> Int64? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
    }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(cString: bytes)
    }
}

/// Rows as hand-written code decodes them.
struct BudgetRow {
    var id: Int64, entity: Int64, name: String, limit: Double
    static let columns = #""Z_PK", "Z_ENT", "ZNAME", "ZLIMIT""#
    init(_ row: borrowing RawStatement) {
        id = row.int(0); entity = row.int(1); name = row.text(2); limit = row.double(3)
    }
}

struct TransactionRow {
    var id: Int64, entity: Int64, note: String, amount: Double, date: Date, hasReceipt: Bool, budget: Int64?
    static let columns = #""Z_PK", "Z_ENT", "ZNOTE", "ZAMOUNT", "ZDATE", "ZHASRECEIPT", "ZBUDGET""#
    init(_ row: borrowing RawStatement) {
        id = row.int(0); entity = row.int(1); note = row.text(2); amount = row.double(3)
        date = Date(timeIntervalSinceReferenceDate: row.double(4)); hasReceipt = row.int(5) != 0; budget = row.optionalInt(6)
    }
}

struct MovieRow {
    var id: Int64, entity: Int64, name: String, genre: Int64
    static let columns = #""Z_PK", "Z_ENT", "ZNAME", "ZGENRE""#
    init(_ row: borrowing RawStatement) {
        id = row.int(0); entity = row.int(1); name = row.text(2); genre = row.int(3)
    }
}

/// Which struct a hand-written query's rows decode into.
enum HandWrittenRows {
    case budgets, transactions, movies
}

extension QueryCase {
    /// Runs the hand-written SQL, decodes every row into its struct, and returns the keys.
    func runHandWritten(_ database: OpaquePointer) throws -> [Int64] {
        let statement = try RawStatement(database, sql, arguments)
        switch rows {
        case .budgets: return try decodeAll(statement, BudgetRow.init).map(\.id)
        case .transactions: return try decodeAll(statement, TransactionRow.init).map(\.id)
        case .movies: return try decodeAll(statement, MovieRow.init).map(\.id)
        }
    }

    private func decodeAll<Decoded>(
        _ statement: borrowing RawStatement, _ decode: (borrowing RawStatement) -> Decoded
    ) throws -> [Decoded] {
        var rows: [Decoded] = []
        while try statement.step() { rows.append(decode(statement)) }
        return rows
    }
}

public struct BenchmarkError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
