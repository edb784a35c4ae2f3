// The example data in a store, for tests that need real rows.

import Foundation
import PredicateQuery
import PredicateQueryExamples

@testable import PredicateQuerySQLite

enum ExampleStore {
    /// The hand-written example objects in a new in-memory store of the combined schema.
    static func make(layout: StoreMapping.Layout = .coreData) throws -> (SQLiteStore, ObjectGraph) {
        let graph = ExampleData.graph()
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined, layout: layout)
        try store.insert(graph)
        return (store, graph)
    }

    /// The environment golden outputs are computed in: "now" is 2024-06-15 12:00 UTC.
    static let environment = QueryEnvironment(
        now: Date(timeIntervalSinceReferenceDate: 740_145_600), timeZone: TimeZone(identifier: "UTC") ?? .current)

    /// How a row is shown in golden files: its ID and its first String attribute.
    static func describe(_ row: Row, schema: Schema) -> String {
        guard let entity = schema.entity(named: row.id.entity) else { return row.id.description }
        let label = entity.attributes.first { $0.type == .string && !$0.isTransient }.flatMap { row.values[$0.name] }
        return label.map { "\(row.id) \($0)" } ?? row.id.description
    }
}

/// A temporary directory for store files, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pq-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

extension SQLiteStore {
    /// The raw rows of a SQL statement, for tests that look at how things are stored.
    func rawRows(_ sql: String) throws -> [[Value]] {
        let statement = try connection.prepare(sql)
        var rows: [[Value]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.column($0) })
        }
        return rows
    }
}
