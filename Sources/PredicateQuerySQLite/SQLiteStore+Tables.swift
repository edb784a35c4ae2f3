// Creating a store's tables from its mapping: entity tables (shared by an entity
// hierarchy), join tables, the indexes Core Data and SwiftData create (one per
// foreign key, both directions of a join table, `Z_<Entity>_UNIQUE_<name>` for
// unique attributes), Core Data's bookkeeping tables, and pq's schema table.

import Foundation
import PredicateQuery

extension SQLiteStore {
    /// The declared SQL type of an attribute's column.
    func columnType(_ type: AttributeType) -> String {
        let coreData = mapping.layout == .coreData
        switch type {
        case .bool, .integer: return "INTEGER"
        case .double, .float: return coreData ? "FLOAT" : "REAL"
        case .decimal: return "DECIMAL"
        case .string, .url: return coreData ? "VARCHAR" : "TEXT"
        case .date: return coreData ? "TIMESTAMP" : "REAL"
        case .uuid, .data, .transformable: return "BLOB"
        case .named(let name):
            if let enumType = schema.enumType(named: name) {
                return enumType.rawType == .int ? "INTEGER" : (coreData ? "VARCHAR" : "TEXT")
            }
            return "BLOB"
        }
    }

    private func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    func createTables() throws(StoreError) {
        var statements = mapping.tableStatements(
            for: schema,
            spelling: TableSpelling(
                primaryKey: "INTEGER", entityNumber: "INTEGER", foreignKey: "INTEGER", indexSuffix: "_INDEX",
                uniqueIndexes: true, attribute: columnType))
        if mapping.layout == .coreData {
            statements += [
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            ]
        }
        statements.append(
            "CREATE TABLE \(quote(Self.schemaTable)) (\"Z_VERSION\" INTEGER, \"Z_SCHEMA\" TEXT, \"Z_MAPPING\" TEXT)")
        do {
            try connection.transaction {
                for statement in statements { try connection.execute(statement) }
                try writeBookkeeping()
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("cannot create the store: \(error)")
        }
    }

    /// Z_PRIMARYKEY and Z_METADATA rows (Core Data layout), and the PQ_SCHEMA row.
    private func writeBookkeeping() throws(StoreError) {
        if mapping.layout == .coreData {
            let insert = try connection.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?1, ?2, ?3, 0)")
            for entity in StoreMapping.coreDataOrder(schema) {
                let number = Int64(mapping.entityNumbers[entity.name] ?? 0)
                let parent = Int64(entity.parent.flatMap { mapping.entityNumbers[$0] } ?? 0)
                try insert.bind([.int(number), .string(entity.name), .int(parent)])
                _ = try insert.step()
            }
            let metadata = try connection.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?1, NULL)")
            try metadata.bind([.string(UUID().uuidString)])
            _ = try metadata.step()
        }
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
        let row = try connection.prepare("INSERT INTO \(quote(Self.schemaTable)) VALUES (1, ?1, ?2)")
        try row.bind([
            .string(String(decoding: schemaJSON, as: UTF8.self)), .string(String(decoding: mappingJSON, as: UTF8.self)),
        ])
        _ = try row.step()
    }
}
