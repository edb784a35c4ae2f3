// How a schema is laid out in SQL tables: the one place that knows table and
// column names, so lowering and the store agree.
//
// Two layouts come built in. The Core Data layout is the one Core Data and
// SwiftData write: `ZBUDGET(Z_PK, Z_ENT, Z_OPT, ZNAME, …)`, to-one relationships
// as foreign-key columns, many-to-many relationships in `Z_<n><NAME>` join tables,
// entity numbers in alphabetical order. The plain layout names tables and columns
// as the schema does, for ordinary SQLite databases. A mapping is plain data, so a
// store's own tables can also be described by reading them (introspection).

/// Where an entity's objects live.
public struct EntityMapping: Sendable, Hashable, Codable {
    /// The table holding the entity (shared with its parent and siblings in Core Data).
    public var table: String
    /// The integer primary key column.
    public var primaryKey: String
    /// The column holding the entity number when a table holds several entities (`Z_ENT`).
    public var entityColumn: String?
    /// The entity numbers that belong to this entity (its own and its sub-entities'),
    /// when `entityColumn` is set and the table is shared.
    public var entityNumbers: [Int]?
    /// The column of each stored attribute, by attribute name.
    public var columns: [String: String]
    /// Columns whose values queries compare and sort as text: a PostgreSQL enum
    /// type's, which PostgreSQL neither compares with text nor sorts by label.
    public var columnsReadAsText: Set<String>? = nil
}

/// Where a relationship's links live.
public enum RelationshipMapping: Sendable, Hashable, Codable {
    /// A to-one relationship: a column on the source's table holding the destination's key.
    case foreignKey(column: String)
    /// A to-many relationship whose inverse is to-one: the destination's table has a
    /// column holding the source's key.
    case inverseForeignKey(column: String)
    /// A to-many relationship stored in a join table.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String)
}

/// How values of some types are stored.
public enum DateEncoding: String, Sendable, Hashable, Codable {
    /// Seconds since 2001-01-01 00:00:00 UTC, as a REAL (Core Data, SwiftData).
    case secondsSinceReferenceDate
    /// Seconds since 1970-01-01 00:00:00 UTC, as a REAL.
    case secondsSince1970
}

/// The tables and columns of a schema in a store.
public struct StoreMapping: Sendable, Hashable, Codable {
    /// The built-in layouts.
    public enum Layout: String, Sendable, Hashable, Codable {
        /// `coreData`: the tables and columns Core Data and SwiftData write (`ZBUDGET`,
        /// `ZNAME`, `Z_PK`, `Z_ENT`); `plain`: a table per entity and a column per attribute,
        /// named as in the model.
        case coreData, plain
    }

    /// Which of the built-in layouts the mapping follows.
    public var layout: Layout
    /// The table and columns of each entity, by entity name.
    public var entities: [String: EntityMapping]
    /// Keyed by `Entity.relationship`.
    public var relationships: [String: RelationshipMapping]
    /// The entity number of each entity (`Z_ENT`), in the Core Data layout.
    public var entityNumbers: [String: Int]
    /// How dates are stored.
    public var dateEncoding: DateEncoding
    /// The columns that lead an index, by table, as read from a store (names
    /// lowercased); nil when unknown, and then any column may have one. Lowering
    /// chooses between plans with it (see `SQLLowering+ElementPasses`). It describes
    /// the store, not the layout, so it is not encoded with the mapping.
    public var indexedColumns: [String: Set<String>]? = nil
    /// The database the tables are in, which picks the SQL dialect. Like the indexes,
    /// it describes the store, not the layout, so it is not encoded.
    public var database: SQLDatabase = .sqlite

    private enum CodingKeys: String, CodingKey {
        case layout, entities, relationships, entityNumbers, dateEncoding
    }

    /// Whether SQL lowered for `other` reads this mapping's tables as it means to:
    /// the same layout, tables, columns, entity numbers, date encoding and database.
    /// The indexes may differ: they change which plan lowering picks, not what the
    /// SQL reads.
    public func readsLike(_ other: StoreMapping) -> Bool {
        layout == other.layout && database == other.database && dateEncoding == other.dateEncoding
            && entityNumbers == other.entityNumbers && entities == other.entities && relationships == other.relationships
    }

    /// Whether a column may lead an index: true when the store's indexes are unknown.
    public func mayHaveIndex(table: String, column: String) -> Bool {
        guard let indexedColumns else { return true }
        return indexedColumns[table.lowercased()]?.contains(column.lowercased()) ?? false
    }

    /// The mapping of an entity.
    public func entity(_ name: String) -> EntityMapping? { entities[name] }

    /// The mapping of a relationship of an entity (declared on it or an ancestor).
    public func relationship(_ name: String, of entity: String) -> RelationshipMapping? {
        relationships["\(entity).\(name)"]
    }

    /// Where an entity goes in either layout: its number, the root whose table it
    /// lives in, and, when that table is shared by several entities, the numbers of
    /// this entity and its sub-entities (which its queries must select).
    struct Placement {
        var entity: Entity
        var root: Entity
        var number: Int
        var sharedNumbers: [Int]?
    }

    /// Every entity's placement, in numbering order.
    static func placements(_ schema: Schema) -> [Placement] {
        let ordered = coreDataOrder(schema)
        var numbers: [String: Int] = [:]
        for (index, entity) in ordered.enumerated() { numbers[entity.name] = index + 1 }
        return ordered.map { entity in
            let root = schema.lineage(of: entity).last ?? entity
            let family = ordered.filter { schema.lineage(of: $0).contains { $0.name == entity.name } }
            let shared = ordered.contains { $0.name != root.name && schema.lineage(of: $0).last?.name == root.name }
            return Placement(
                entity: entity, root: root, number: numbers[entity.name] ?? 0,
                sharedNumbers: shared ? family.compactMap { numbers[$0.name] } : nil)
        }
    }

    /// The stored (non-transient) attributes of an entity with the column each gets.
    static func attributeColumns(of entity: Entity, in schema: Schema, name: (Attribute) -> String) -> [String: String] {
        var columns: [String: String] = [:]
        for property in schema.allProperties(of: entity) {
            if case .attribute(let attribute) = property, !attribute.isTransient { columns[attribute.name] = name(attribute) }
        }
        return columns
    }

    /// The mapping for `schema` in `layout`.
    public static func make(for schema: Schema, layout: Layout) -> StoreMapping {
        switch layout {
        case .coreData: coreData(schema)
        case .plain: plain(schema)
        }
    }
}
