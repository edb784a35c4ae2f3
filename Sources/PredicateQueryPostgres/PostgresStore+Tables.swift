// Creating a store's tables in PostgreSQL and loading an object graph into them.
//
// The plain layout (tables and columns named as the schema names them) with
// PostgreSQL's own types: bigint keys, boolean, double precision, text,
// timestamptz, uuid, bytea; enums as their raw values. Foreign keys get an index
// each, join tables a primary key and an index the other way round. Rows go in
// with multi-row INSERTs whose values are bound, in one transaction.

import Foundation
import PredicateQuery
import PredicateQueryStore

extension PostgresStore {
    func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    /// The column type of an attribute.
    func columnType(_ type: AttributeType) -> String {
        switch type {
        case .bool: "boolean"
        case .integer: "bigint"
        case .double, .float, .decimal: "double precision"
        case .string, .url: "text"
        case .date: "timestamptz"
        case .uuid: "uuid"
        case .data, .transformable: "bytea"
        case .named(let name):
            if let enumType = schema.enumType(named: name) { enumType.rawType == .int ? "bigint" : "text" } else { "bytea" }
        }
    }

    func createTables() throws(StoreError) {
        var statements = mapping.tableStatements(
            for: schema,
            spelling: TableSpelling(
                primaryKey: "bigint", entityNumber: "integer", foreignKey: "bigint", indexSuffix: "_index",
                uniqueIndexes: false, attribute: columnType))
        statements.append("CREATE TABLE \(Self.schemaTable) (schema_json text NOT NULL, mapping_json text NOT NULL)")
        let schemaJSON: Data
        let mappingJSON: Data
        do {
            schemaJSON = try schema.jsonData(prettyPrinted: false)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            mappingJSON = try encoder.encode(mapping)
        } catch {
            throw StoreError("cannot encode the schema: \(error)")
        }
        try connection.execute("BEGIN")
        do {
            for statement in statements { try connection.execute(statement) }
            _ = try connection.query(
                "INSERT INTO \(Self.schemaTable) VALUES ($1, $2)",
                [
                    PostgresParameter(text: String(decoding: schemaJSON, as: UTF8.self), type: PostgresValues.text),
                    PostgresParameter(text: String(decoding: mappingJSON, as: UTF8.self), type: PostgresValues.text),
                ])
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw StoreError("cannot create the tables: \(error.message)")
        }
    }

    /// Inserts every object of `graph` (keys as in the graph), in one transaction.
    public func insert(_ graph: ObjectGraph) throws(StoreError) {
        try connection.execute("BEGIN")
        do {
            for entity in StoreMapping.coreDataOrder(schema) { try insertObjects(of: entity, from: graph) }
            try insertLinks(from: graph)
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// `INSERT INTO table (columns) VALUES (…), (…)` in batches, every value bound.
    private func insertRows(
        _ table: String, _ columns: [String], _ rows: [[PostgresParameter]], suffix: String = ""
    )
        throws(StoreError)
    {
        guard !columns.isEmpty else { return }
        let perBatch = max(1, 30_000 / columns.count)
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + perBatch)]
            var tuples: [String] = []
            var next = 1
            for _ in batch {
                tuples.append("(" + (0..<columns.count).map { "$\(next + $0)" }.joined(separator: ", ") + ")")
                next += columns.count
            }
            let sql =
                "INSERT INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES \(tuples.joined(separator: ", "))\(suffix)"
            _ = try connection.query(sql, batch.flatMap { $0 })
            start += perBatch
        }
    }

    private func insertObjects(of entity: Entity, from graph: ObjectGraph) throws(StoreError) {
        let ids = graph.objectsByEntity[entity.name] ?? []
        guard !ids.isEmpty, let mapped = mapping.entity(entity.name) else { return }
        let (attributes, toOnes) = mapping.rowContents(of: entity, in: schema)
        var columns = [mapped.primaryKey]
        if let entityColumn = mapped.entityColumn { columns.append(entityColumn) }
        columns += attributes.compactMap { mapped.columns[$0.name] } + toOnes.map(\.1)
        let number = Int64(mapping.entityNumbers[entity.name] ?? 0)
        var rows: [[PostgresParameter]] = []
        for id in ids {
            guard let object = graph[id] else { continue }
            var row = [PostgresParameter(text: String(id.key), type: PostgresValues.int8)]
            if mapped.entityColumn != nil { row.append(PostgresParameter(text: String(number), type: PostgresValues.int4)) }
            for attribute in attributes {
                let type = ValueType(attribute.type, in: schema)
                try PostgresValues.requireMicroseconds(object.value(attribute.name))
                let stored = StoreValueEncoding.encode(object.value(attribute.name), as: type, dates: mapping.dateEncoding)
                row.append(try PostgresValues.parameter(stored, as: type, dates: mapping.dateEncoding))
            }
            for (relationship, _) in toOnes {
                row.append(
                    PostgresParameter(text: object.toOne[relationship.name].map { String($0.key) }, type: PostgresValues.int8))
            }
            rows.append(row)
        }
        try insertRows(mapped.table, columns, rows)
    }

    private func insertLinks(from graph: ObjectGraph) throws(StoreError) {
        for (table, pairs) in mapping.links(in: graph, of: schema) {
            let rows = pairs.map { source, destination in
                [
                    PostgresParameter(text: String(source), type: PostgresValues.int8),
                    PostgresParameter(text: String(destination), type: PostgresValues.int8),
                ]
            }
            try insertRows(table.name, [table.source, table.destination], rows, suffix: " ON CONFLICT DO NOTHING")
        }
    }
}
