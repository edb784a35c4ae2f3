// The affinity pq reads from a declared column type (Introspector, SQLiteStore+Introspection.swift)
// against SQLite's own: a value stored through a column of each type shows the
// affinity SQLite gave it. Text '12' and integer 12 stored in one row tell four of
// SQLite's five affinities apart (INTEGER and NUMERIC store both alike, so the
// types SQLite's documentation lists decide those).

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQuerySQLite

struct ColumnAffinityTests {
    /// SQLite's documented examples (datatype3, "Affinity Name Examples"), its rule
    /// that a type with "INT" anywhere is INTEGER (FLOATING POINT), letters in any
    /// case, and names that fold only outside ASCII.
    static let declaredTypes: [(String, Introspector.Affinity)] = [
        ("INT", .integer), ("INTEGER", .integer), ("TINYINT", .integer), ("SMALLINT", .integer),
        ("MEDIUMINT", .integer), ("BIGINT", .integer), ("UNSIGNED BIG INT", .integer), ("INT2", .integer),
        ("INT8", .integer), ("integer", .integer), ("FLOATING POINT", .integer),
        ("CHARACTER(20)", .text), ("VARCHAR(255)", .text), ("VARYING CHARACTER(255)", .text), ("NCHAR(55)", .text),
        ("NATIVE CHARACTER(70)", .text), ("NVARCHAR(100)", .text), ("TEXT", .text), ("CLOB", .text),
        ("varchar", .text), ("BLOB", .blob), ("", .blob), ("blob", .blob), ("REAL", .real), ("DOUBLE", .real),
        ("DOUBLE PRECISION", .real), ("FLOAT", .real), ("Float", .real), ("NUMERIC", .numeric),
        ("DECIMAL(10,5)", .numeric), ("BOOLEAN", .numeric), ("DATE", .numeric), ("DATETIME", .numeric),
        ("STRING", .numeric), ("poınt", .numeric), ("ınteger", .numeric), ("ｉｎｔ", .numeric),
    ]

    @Test func declaredTypesHaveSQLitesAffinities() throws {
        for (declared, expected) in Self.declaredTypes {
            #expect(Introspector.affinity(of: declared) == expected, "\(declared)")
        }
    }

    @Test func whatSQLiteStoresAgreesWithTheAffinityPqReads() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("affinity.sqlite")
        let connection = try SQLiteConnection(path: path, readOnly: false, create: true)
        // One table per type: a column name cannot hold every declared type's text.
        for (index, (declared, _)) in Self.declaredTypes.enumerated() {
            try connection.execute("CREATE TABLE t\(index) (a \(declared), b \(declared))")
            try connection.execute("INSERT INTO t\(index) VALUES ('12', 12)")
        }
        for (index, (declared, _)) in Self.declaredTypes.enumerated() {
            let statement = try connection.prepare("SELECT typeof(a), typeof(b) FROM t\(index)")
            #expect(try statement.step())
            let stored = [statement.text(0) ?? "?", statement.text(1) ?? "?"]
            let seen: String
            switch Introspector.affinity(of: declared) {
            case .integer, .numeric: seen = "integer integer"
            case .text: seen = "text text"
            case .blob: seen = "text integer"
            case .real: seen = "real real"
            }
            #expect(stored.joined(separator: " ") == seen, "\(declared)")
        }
    }
}
