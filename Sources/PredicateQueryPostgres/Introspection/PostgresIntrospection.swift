// Reading a PostgreSQL schema pq did not create (a Vapor/Fluent app's, a
// hand-written one) as a pq schema and a mapping onto its tables.
//
// The rules:
// - A table with a one-column primary key is an entity, named in upper camel
//   case, singular (`budgets` → `Budget`); the key may be of any type pq has
//   (bigserial, identity, uuid, text). A table whose primary key has several
//   columns, or none, is left out — pq tells objects apart by one key column —
//   unless it is a join table (see `+Relationships`). Views, materialized views
//   and foreign tables are not read (the notes name them).
// - Each column is an attribute in lower camel case (`created_at` → `createdAt`),
//   optional unless NOT NULL. Types: int2/int4/int8 → Int16/Int32/Int; float4 →
//   Float; float8 → Double; numeric → Decimal (read as a Double, as pq's Decimal
//   is everywhere); text, varchar, char, citext → String; bool → Bool;
//   timestamptz → Date; timestamp (no zone) and date → Date, read as UTC (the
//   session's time zone is UTC); uuid → UUID; bytea → Data; a PostgreSQL enum type
//   → an enum whose raw values are its labels; a text column with a single-column
//   `CHECK (col IN ('a', 'b'))` → an enum with those raw values. json, jsonb,
//   arrays and other types have no pq type: those columns are left out, and the
//   notes say so.
// - Foreign keys become relationships (`+Relationships`).
//
// Nothing is dropped silently: every table, column or key left out, and every
// name changed to avoid a clash, is one sentence in `notes`, which opening
// prints as warnings and `.schema` shows.

import Foundation
import PredicateQuery
import PredicateQueryStore

/// Builds a schema and a plain mapping from a `PostgresCatalog`.
struct PostgresIntrospection {
    let catalog: PostgresCatalog
    /// One sentence for each table, column, key or name pq had to leave out or change.
    var notes: [String] = []

    /// A table read as an entity.
    struct EntityTable {
        var table: PostgresCatalog.Table
        var entity: String
        var key: PostgresCatalog.Column
        var attributes: [Attribute] = []
        /// The attribute of each column read, by column name.
        var attributeOfColumn: [String: String] = [:]
        var relationships: [Relationship] = []
        /// Columns of a PostgreSQL enum type, which queries read as text.
        var enumColumns: Set<String> = []
    }

    var entities: [EntityTable] = []
    var enums: [EnumType] = []
    var relationshipMappings: [String: RelationshipMapping] = [:]
    /// The to-one relationships made so far, to be given inverses.
    var links: [Link] = []

    init(catalog: PostgresCatalog) {
        self.catalog = catalog
    }

    /// The schema and mapping, or an error when no table is left to query.
    mutating func read() throws(StoreError) -> (Schema, StoreMapping) {
        let joinTables = findJoinTables()
        for table in catalog.tables where !joinTables.contains(where: { $0.table.oid == table.oid }) {
            addEntity(table)
        }
        for index in entities.indices {
            var entity = entities[index]
            addAttributes(&entity)
            entities[index] = entity
        }
        addToOneRelationships()
        addManyToMany(joinTables)
        addInverses()
        for view in catalog.views {
            notes.append("\(view.kind) '\(view.name)' is left out: pq reads tables only")
        }
        guard !entities.isEmpty else {
            let reasons = notes.isEmpty ? "" : ": " + notes.joined(separator: "; ")
            throw StoreError(
                "the schema '\(catalog.schemaName)' of the database has no tables pq can query\(reasons)", kind: .unavailable)
        }
        var mapped: [String: EntityMapping] = [:]
        var numbers: [String: Int] = [:]
        for (index, entity) in entities.enumerated() {
            var columns: [String: String] = [:]
            for (column, attribute) in entity.attributeOfColumn { columns[attribute] = column }
            var entityMapping = EntityMapping(table: entity.table.name, primaryKey: entity.key.name, columns: columns)
            if !entity.enumColumns.isEmpty { entityMapping.columnsReadAsText = entity.enumColumns }
            mapped[entity.entity] = entityMapping
            numbers[entity.entity] = index + 1
        }
        var schema = Schema(
            entities: entities.map { Entity($0.entity, attributes: $0.attributes, relationships: $0.relationships) },
            enums: enums)
        addSQLNames(to: &schema)
        let mapping = StoreMapping(
            .plain, entities: mapped, relationships: relationshipMappings, entityNumbers: numbers, dates: .secondsSince1970)
        if let problem = schema.validate().first {
            throw StoreError("cannot read the tables of the database as a schema: \(problem.message)")
        }
        return (schema, mapping)
    }

    // MARK: - SQL names

    /// Tables and columns are found by their SQL names too (`orders`, `placed_at`), as
    /// other names (`Schema.otherEntityNames`, `Entity.otherNames`): a table's name
    /// unless it is an entity's name or another table's; a column's unless it is the
    /// name of a property of its entity or another column's. Foreign-key columns are
    /// not among them (the relationship is named after the object, not the key).
    private func addSQLNames(to schema: inout Schema) {
        let entityNames = Set(entities.map(\.entity))
        var tableNames: [String: Int] = [:]
        for entity in entities { tableNames[entity.table.name, default: 0] += 1 }
        for entity in entities where entity.table.name != entity.entity && !entityNames.contains(entity.table.name) {
            if tableNames[entity.table.name] == 1 { schema.otherEntityNames[entity.table.name] = entity.entity }
        }
        for (index, table) in entities.enumerated() {
            let propertyNames = Set(table.attributes.map(\.name) + table.relationships.map(\.name))
            for (column, attribute) in table.attributeOfColumn where column != attribute && !propertyNames.contains(column) {
                schema.entities[index].otherNames[column] = attribute
            }
        }
    }

    // MARK: - Entities

    private mutating func addEntity(_ table: PostgresCatalog.Table) {
        let key = table.primaryKey
        guard key.count == 1, let keyColumn = key.first else {
            notes.append(
                key.isEmpty
                    ? "table '\(table.name)' is left out: it has no primary key, and pq tells objects apart by one key column"
                    : "table '\(table.name)' is left out: its primary key (\(key.map(\.name).joined(separator: ", "))) has \(key.count) columns, and pq tells objects apart by one key column (a join table may have only its two foreign keys, and an id)"
            )
            return
        }
        guard let keyType = Self.plainType(of: keyColumn), Self.isKeyType(keyType) else {
            notes.append(
                "table '\(table.name)' is left out: its key '\(keyColumn.name)' is of type \(keyColumn.displayType), which pq cannot compare objects by"
            )
            return
        }
        let taken = Set(entities.map(\.entity))
        let candidates = [PostgresSchemaNaming.entityName(ofTable: table.name), PostgresSchemaNaming.upperCamel(table.name)]
        guard let name = candidates.compactMap({ $0 }).first(where: { !taken.contains($0) }) else {
            notes.append(
                "table '\(table.name)' is left out: "
                    + (candidates.compactMap { $0 }.isEmpty
                        ? "its name is not one pq can spell as an entity"
                        : "another table already gives the entity name '\(candidates.compactMap { $0 }[0])'"))
            return
        }
        if let first = candidates[0], name != first {
            notes.append("table '\(table.name)' is the entity '\(name)': another table is already '\(first)'")
        }
        entities.append(EntityTable(table: table, entity: name, key: keyColumn))
    }

    /// Whether a key of this type can tell objects apart in pq (compared, sorted, joined).
    private static func isKeyType(_ type: AttributeType) -> Bool {
        switch type {
        case .integer, .uuid, .string: true
        default: false
        }
    }

    // MARK: - Attributes

    private mutating func addAttributes(_ entity: inout EntityTable) {
        var names: Set<String> = []
        for column in entity.table.columns {
            let label = "column '\(entity.table.name).\(column.name)'"
            let type: AttributeType
            switch attributeType(of: column, in: entity.table) {
            case .success(let found): type = found
            case .failure(let reason):
                notes.append("\(label) is left out: \(reason.message)")
                continue
            }
            let candidates = [PostgresSchemaNaming.lowerCamel(column.name), column.name]
            guard
                let name = candidates.compactMap({ $0 }).first(where: {
                    PlainName.isPlain($0) && !names.contains($0)
                })
            else {
                notes.append("\(label) is left out: its name is not one pq can spell, or another column already has it")
                continue
            }
            if let first = candidates[0], first != name {
                notes.append("\(label) is the attribute '\(name)': another column is already '\(first)'")
            }
            names.insert(name)
            let isKey = column.name == entity.key.name
            entity.attributes.append(Attribute(name, type, optional: !(isKey || column.isNotNull)))
            entity.attributeOfColumn[column.name] = name
            if column.typeKind == "e" { entity.enumColumns.insert(column.name) }
        }
    }

    /// A column's type with no enum made for it: nil for one pq has no type for.
    static func plainType(of column: PostgresCatalog.Column) -> AttributeType? {
        guard column.typeCategory != "A" else { return nil }
        switch column.typeName {
        case "int2": return .integer(bits: 16)
        case "int4": return .integer(bits: 32)
        case "int8": return .integer(bits: 64)
        case "float4": return .float
        case "float8": return .double
        case "numeric": return .decimal
        case "text", "varchar", "bpchar", "citext", "name": return .string
        case "bool": return .bool
        case "timestamptz", "timestamp", "date": return .date
        case "uuid": return .uuid
        case "bytea": return .data
        default: return nil
        }
    }

    /// Why a column has no attribute type.
    struct Reason: Error {
        var message: String
    }

    private mutating func attributeType(
        of column: PostgresCatalog.Column, in table: PostgresCatalog.Table
    ) -> Result<AttributeType, Reason> {
        if column.typeCategory == "A" {
            return .failure(Reason(message: "it is an array (\(column.displayType)), and pq has no array attributes"))
        }
        if column.typeName == "json" || column.typeName == "jsonb" {
            return .failure(Reason(message: "pq cannot look inside \(column.typeName) values, so it cannot query them"))
        }
        if column.typeKind == "e" {
            return enumType(named: column.typeName, labels: catalog.enumLabels[column.typeOID] ?? [], for: column)
        }
        guard let type = Self.plainType(of: column) else {
            return .failure(Reason(message: "pq has no type for \(column.displayType)"))
        }
        if type == .string, let labels = PostgresCheckEnum.labels(of: column, in: table) {
            let name =
                (PostgresSchemaNaming.entityName(ofTable: table.name) ?? "")
                + (PostgresSchemaNaming.upperCamel(column.name) ?? "")
            if case .success(let named) = enumType(named: name, labels: labels, for: column) { return .success(named) }
            return .success(.string)
        }
        return .success(type)
    }

    /// The enum for a set of labels (made once per name), with raw values the labels.
    private mutating func enumType(
        named sqlName: String, labels: [String], for column: PostgresCatalog.Column
    ) -> Result<AttributeType, Reason> {
        guard var name = PostgresSchemaNaming.upperCamel(sqlName), !labels.isEmpty else {
            return .failure(Reason(message: "its enum type '\(sqlName)' has no name or cases pq can spell"))
        }
        let clashes = entities.contains { $0.entity == name }
        if clashes { name += "Enum" }
        if let existing = enums.first(where: { $0.name == name }) {
            guard existing.cases.map(\.rawValue) == labels.map({ .string($0) }) else {
                return .failure(Reason(message: "another enum is already called '\(name)' with other cases"))
            }
            return .success(.named(name))
        }
        if clashes {
            notes.append("the enum type '\(sqlName)' is the enum '\(name)': an entity has the name '\(name.dropLast(4))'")
        }
        var caseNames: Set<String> = []
        var cases: [(name: String, rawValue: EnumType.RawValue?)] = []
        for (position, label) in labels.enumerated() {
            var caseName = PostgresSchemaNaming.caseName(label, position: position)
            if caseNames.contains(caseName) { caseName = "case\(position)" }
            caseNames.insert(caseName)
            cases.append((caseName, .string(label)))
        }
        enums.append(EnumType(name, rawType: .string, cases: cases))
        return .success(.named(name))
    }
}
