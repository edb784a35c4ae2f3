// The Core Data layout with a store's own entity numbers.
//
// pq numbers entities as Core Data does for a new store: alphabetically, each
// sub-entity right after its parent. A real store's numbers are whatever its
// `Z_PRIMARYKEY` table says — a model gains entities over time and a migration
// keeps the numbers already handed out — and the store is the authority. Two
// things depend on the numbers: the `Z_ENT` values a shared table's entity
// matches, and the names of many-to-many join tables and their columns
// (`Z_<n><NAME>`). Both are rebuilt here from the numbers a store gives; table and
// attribute column names do not depend on them.
//
// Also here: initialisers for the store module, which builds the mappings of
// databases it introspects directly from their tables.

extension StoreMapping {
    /// The Core Data mapping of `schema` with the given entity numbers (by entity
    /// name) in place of the computed ones. An entity `numbers` does not name keeps
    /// its computed number; names that are not entities of the schema are ignored.
    package static func coreData(_ schema: Schema, entityNumbers numbers: [String: Int]) -> StoreMapping {
        var mapping = coreData(schema)
        var merged = mapping.entityNumbers
        for (name, number) in numbers where merged[name] != nil { merged[name] = number }
        var renumbered: [Int: Int] = [:]
        for (name, computed) in mapping.entityNumbers { renumbered[computed] = merged[name] }
        for (name, entity) in mapping.entities {
            mapping.entities[name]?.entityNumbers = entity.entityNumbers?.map { renumbered[$0] ?? $0 }
        }
        for entity in schema.entities where mapping.entities[entity.name] != nil {
            for property in schema.allProperties(of: entity) {
                guard case .relationship(let relationship) = property else { continue }
                mapping.relationships["\(entity.name).\(relationship.name)"] = coreDataRelationship(
                    relationship, of: entity, schema: schema, numbers: merged)
            }
        }
        mapping.entityNumbers = merged
        return mapping
    }
}

extension EntityMapping {
    /// An entity's mapping, for mappings built outside this module (introspection).
    package init(
        table: String, primaryKey: String, columns: [String: String], entityColumn: String? = nil,
        entityNumbers: [Int]? = nil
    ) {
        self.table = table
        self.primaryKey = primaryKey
        self.entityColumn = entityColumn
        self.entityNumbers = entityNumbers
        self.columns = columns
    }
}

extension StoreMapping {
    /// A mapping from its parts, for mappings built outside this module (introspection).
    package init(
        _ layout: Layout, entities: [String: EntityMapping], relationships: [String: RelationshipMapping],
        entityNumbers: [String: Int], dates: DateEncoding
    ) {
        self.layout = layout
        self.entities = entities
        self.relationships = relationships
        self.entityNumbers = entityNumbers
        self.dateEncoding = dates
    }
}
