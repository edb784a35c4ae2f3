// Initialisers for the store module, which builds mappings directly from what a
// store holds: the tables of a database it introspects, and the layout of a Core
// Data store read from the store itself (a real store's entity numbers, columns
// and join tables are whatever its `Z_PRIMARYKEY` and catalog say; see
// `PredicateQuerySQLite/CoreData/CoreDataLayoutDiscovery`).

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
