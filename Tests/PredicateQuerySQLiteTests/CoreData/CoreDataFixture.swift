// Core Data stores built with plain SQL, as Core Data lays them out, for the
// layout-discovery tests: a `Z_PRIMARYKEY` listing the entities, `Z_METADATA`, and
// whatever tables a test writes. Each test then queries through pq and compares
// with hand-written SQL on the same store.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQuerySQLite

struct CoreDataFixture {
    let directory: TemporaryDirectory
    let path: String

    /// A store with these entities (number, name, parent number) and then `sql`.
    init(entities: [(Int, String, Int)], _ sql: String) throws {
        directory = try TemporaryDirectory()
        path = directory.path("Fixture.sqlite")
        let connection = try SQLiteConnection(path: path, readOnly: false, create: true)
        var setup = """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            """
        for (number, name, parent) in entities {
            setup += "INSERT INTO Z_PRIMARYKEY VALUES (\(number), '\(name)', \(parent), 0);\n"
        }
        try connection.execute(setup + sql)
    }

    func open(_ schema: Schema) throws -> SQLiteStore {
        try SQLiteStore.open(at: path, schema: schema)
    }

    /// The message of the error opening the store with `schema` throws, nil if it opens.
    func refusal(_ schema: Schema) -> String? {
        do {
            _ = try open(schema)
            return nil
        } catch let error as StoreError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}

extension SQLiteStore {
    /// The keys of the objects a query returns, sorted.
    func keys(_ text: String) throws -> [Int64] {
        let result = compile(text)
        let compiled = try #require(result.compiled, "\(text): \(result.diagnostics.map(\.message))")
        return try fetch(compiled).map(\.id.key).sorted()
    }

    /// The count a query returns.
    func count(_ text: String) throws -> Int64 {
        let result = compile(text)
        let compiled = try #require(result.compiled, "\(text): \(result.diagnostics.map(\.message))")
        return try count(compiled)
    }

    /// The integers a hand-written SQL query returns in its first column, sorted.
    func integers(_ sql: String) throws -> [Int64] {
        try rawRows(sql).compactMap { row -> Int64? in
            if case .int(let value)? = row.first { return value }
            return nil
        }.sorted()
    }
}
