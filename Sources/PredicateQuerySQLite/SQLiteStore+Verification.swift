// Checking a store against the model it is opened with.
//
// A store opened with a schema (model files, `--model`) is laid out by a mapping
// pq computes from the schema. Before any query runs, every table and column that
// mapping names is looked up in the store — entity tables with their key, entity
// number and attribute columns, foreign-key columns, join tables and their columns
// — and the first difference is reported in one sentence:
//
//     the store does not match the model: table ZBUDGET has no column ZLIMIT (Budget.limit)
//
// (with a count of further differences, if any), instead of a SQL error in the
// middle of a query. Transient attributes have no column and are not looked for;
// extra tables and columns in the store are fine.
//
// A Core Data store (one with a `Z_PRIMARYKEY` table) is not checked here: its
// layout is read from the store itself (see `CoreData/CoreDataLayoutDiscovery`),
// which reports every mismatch at once. A store without `Z_PRIMARYKEY` keeps pq's
// numbers and is checked here.

import PredicateQuery

extension SQLiteStore {
    /// The mapping of `schema` in `layout`, renumbered from the store's
    /// `Z_PRIMARYKEY` (Core Data layout) and checked against the store's tables.
    static func verifiedMapping(
        for schema: Schema, layout: StoreMapping.Layout, connection: SQLiteConnection
    ) throws(StoreError) -> StoreMapping {
        var warnings: [String] = []
        return try verifiedMapping(for: schema, layout: layout, connection: connection, warnings: &warnings)
    }

    /// As `verifiedMapping(for:layout:connection:)`, with what opening warns about.
    /// A Core Data store with a `Z_PRIMARYKEY` table has its layout discovered from
    /// the store (see `CoreDataLayoutDiscovery`); other stores are checked here.
    static func verifiedMapping(
        for schema: Schema, layout: StoreMapping.Layout, connection: SQLiteConnection, warnings: inout [String]
    ) throws(StoreError) -> StoreMapping {
        if layout == .coreData, try hasTable("Z_PRIMARYKEY", in: connection) {
            var discovery = CoreDataLayoutDiscovery(schema: schema, catalog: try CoreDataCatalog(connection: connection))
            let discovered = try discovery.discover()
            warnings += discovered.warnings
            return discovered.mapping
        }
        let mapping = StoreMapping.make(for: schema, layout: layout)
        var verifier = StoreVerifier(connection: connection)
        try verifier.verify(mapping, of: schema, layout: layout)
        return mapping
    }
}

/// Looks up every table and column a mapping names, and reports what is missing.
struct StoreVerifier {
    let connection: SQLiteConnection
    /// The columns of each table looked up (lowercased, as SQLite matches names), nil when there is no such table.
    private var columnsByTable: [String: Set<String>?] = [:]
    /// The missing tables and columns, in the order found, one phrase each.
    private var differences: [String] = []
    private var reported: Set<String> = []

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Throws one sentence naming the first difference between the store and the mapping.
    mutating func verify(_ mapping: StoreMapping, of schema: Schema, layout: StoreMapping.Layout) throws(StoreError) {
        let entities = StoreMapping.coreDataOrder(schema)
        for entity in entities {
            try verifyEntity(entity, mapping: mapping, schema: schema)
        }
        guard let first = differences.first else { return }
        let tables = uniqueTables(of: entities, in: mapping)
        var missingTables: [String] = []
        for table in tables {
            if try columns(of: table) == nil { missingTables.append(table) }
        }
        if !tables.isEmpty, missingTables.count == tables.count {
            throw StoreError(try noneOfTheTables(tables, schema: schema, layout: layout))
        }
        let more = differences.count - 1
        let tail = more == 0 ? "" : " (and \(more) more missing \(more == 1 ? "table or column" : "tables or columns"))"
        throw StoreError("the store does not match the model: \(first)\(tail)")
    }

    private mutating func verifyEntity(_ entity: Entity, mapping: StoreMapping, schema: Schema) throws(StoreError) {
        guard let mapped = mapping.entity(entity.name) else { return }
        let table = mapped.table
        guard try columns(of: table) != nil else {
            report(table: table, "it has no table \(table) (\(entity.name))")
            return
        }
        if !["rowid", "_rowid_", "oid"].contains(mapped.primaryKey.lowercased()) {
            try require(mapped.primaryKey, in: table, for: "the key of \(entity.name)")
        }
        if let entityColumn = mapped.entityColumn {
            try require(entityColumn, in: table, for: "the entity number of \(entity.name)")
        }
        for property in schema.allProperties(of: entity) {
            switch property {
            case .attribute(let attribute) where !attribute.isTransient:
                guard let column = mapped.columns[attribute.name] else { continue }
                try require(column, in: table, for: "\(entity.name).\(attribute.name)")
            case .relationship(let relationship):
                try verifyRelationship(relationship, of: entity, table: table, mapping: mapping)
            default:
                break
            }
        }
    }

    private mutating func verifyRelationship(
        _ relationship: Relationship, of entity: Entity, table: String, mapping: StoreMapping
    ) throws(StoreError) {
        let label = "\(entity.name).\(relationship.name)"
        switch mapping.relationship(relationship.name, of: entity.name) {
        case .foreignKey(let column)?:
            try require(column, in: table, for: label)
        case .inverseForeignKey(let column)?:
            // A missing destination table is reported with its own entity.
            guard let destination = mapping.entity(relationship.destination),
                try columns(of: destination.table) != nil
            else { return }
            try require(column, in: destination.table, for: label)
        case .joinTable(let joinTable, let sourceColumn, let destinationColumn)?:
            guard try columns(of: joinTable) != nil else {
                report(table: joinTable, "it has no table \(joinTable) (\(label))")
                return
            }
            try require(sourceColumn, in: joinTable, for: label)
            try require(destinationColumn, in: joinTable, for: label)
        case nil:
            break
        }
    }

    /// Records a difference when `table` (which exists) has no column `column`.
    private mutating func require(_ column: String, in table: String, for owner: String) throws(StoreError) {
        guard let columns = try columns(of: table), !columns.contains(column.lowercased()) else { return }
        let key = table.lowercased() + "." + column.lowercased()
        guard reported.insert(key).inserted else { return }
        differences.append("table \(table) has no column \(column) (\(owner))")
    }

    private mutating func report(table: String, _ difference: String) {
        guard reported.insert(table.lowercased()).inserted else { return }
        differences.append(difference)
    }

    /// The columns of a table, lowercased; nil when the store has no such table.
    private mutating func columns(of table: String) throws(StoreError) -> Set<String>? {
        if let known = columnsByTable[table.lowercased()] { return known }
        let statement = try connection.prepare("SELECT name FROM pragma_table_info(?1)")
        try statement.bind([.string(table)])
        var names: Set<String> = []
        while try statement.step() {
            if case .string(let name) = statement.column(0) { names.insert(name.lowercased()) }
        }
        let result: Set<String>? = names.isEmpty ? nil : names
        columnsByTable[table.lowercased()] = .some(result)
        return result
    }

    private func uniqueTables(of entities: [Entity], in mapping: StoreMapping) -> [String] {
        var tables: [String] = []
        for entity in entities {
            guard let table = mapping.entity(entity.name)?.table, !tables.contains(table) else { continue }
            tables.append(table)
        }
        return tables
    }

    /// The sentence for a store that has none of the model's entity tables, naming
    /// the other layout when the store has the tables in that one.
    private mutating func noneOfTheTables(
        _ tables: [String], schema: Schema, layout: StoreMapping.Layout
    ) throws(StoreError) -> String {
        let other: StoreMapping.Layout = layout == .coreData ? .plain : .coreData
        let otherTables = uniqueTables(of: schema.entities, in: StoreMapping.make(for: schema, layout: other))
        var otherComplete = !otherTables.isEmpty
        for table in otherTables {
            if try columns(of: table) == nil { otherComplete = false }
        }
        let sentence = "the store does not match the model: it has none of the model's tables (\(Self.list(tables)))"
        guard otherComplete else { return sentence }
        let name = other == .plain ? "plain" : "Core Data"
        return sentence + ", but has them in the \(name) layout (\(Self.list(otherTables)))"
    }

    /// Up to four names, then how many more.
    static func list(_ names: [String]) -> String {
        let shown = names.prefix(4).joined(separator: ", ")
        return names.count > 4 ? "\(shown) and \(names.count - 4) more" : shown
    }
}
