// The Core Data layout of a model in a store, read from the store rather than
// computed from the model alone.
//
// Core Data's rules say where each entity, attribute and relationship lives (see
// the README of the corpus, "How Core Data lays out a store"), but they leave
// choices that only the store can settle: entity numbers (`Z_PRIMARYKEY`), which
// of the numbered columns `ZTITLE`, `ZTITLE1`, `ZTITLE2` belongs to which sibling
// sub-entity, which side names a many-to-many join table and which of its columns
// carries a suffix, whether an entity was renamed. Discovery maps by the rules,
// then confirms every choice against the store's catalog and data:
//
// - entity numbers, parents and tables come from `Z_PRIMARYKEY` (an entity renamed
//   in the model is looked up by its `originalName`); a model entity the store does
//   not hold is left out with a warning;
// - attribute and to-one columns are resolved per table and base name (see
//   `+Columns`); relationships (see `+Relationships`);
// - every column of every entity table and join table used must be accounted for
//   (see `+Accounting`); the others are reported as a warning.
//
// All mismatches are collected and thrown as one error, one item each.

import PredicateQuery

/// The mapping discovery found, with what it warns about.
struct CoreDataLayout {
    var mapping: StoreMapping
    var warnings: [String]
}

/// Discovers the Core Data layout of a schema in a store.
struct CoreDataLayoutDiscovery {
    var catalog: CoreDataCatalog
    let schema: Schema
    /// Model entity name → its row in `Z_PRIMARYKEY`.
    var stored: [String: CoreDataCatalog.StoredEntity] = [:]
    /// Model entity name → its table, as the catalog spells it.
    var tables: [String: String] = [:]
    /// `Declarer.property` (or `Declarer.property.field` for a composite's field) → its column.
    var assigned: [String: String] = [:]
    /// Columns accounted for, by table (both uppercased).
    var accounted: [String: Set<String>] = [:]
    /// Join tables a relationship uses (as spelled in the catalog).
    var joinTables: [String] = []
    /// Many-to-many pairs already looked up (`n:NAME|m:NAME`, lower side first):
    /// the join table and the column of each side, nil when there is none.
    var joinPairs: [String: (table: String, first: String, second: String)?] = [:]
    var relationships: [String: RelationshipMapping] = [:]
    var mismatches: [String] = []
    var warnings: [String] = []

    init(schema: Schema, catalog: CoreDataCatalog) {
        self.schema = schema
        self.catalog = catalog
    }

    /// The layout, or one error listing every mismatch between store and model.
    mutating func discover() throws(StoreError) -> CoreDataLayout {
        let ordered = StoreMapping.coreDataOrder(schema)
        try placeEntities(ordered)
        guard !stored.isEmpty else {
            let names = ordered.map(\.storedName)
            throw StoreError(
                "the store does not match the model: its Z_PRIMARYKEY table has none of the model's entities (\(StoreVerifier.list(names)))"
            )
        }
        try resolveColumns()
        try resolveRelationships(ordered)
        try reportUnaccountedColumns()
        guard mismatches.isEmpty else {
            throw StoreError("the store does not match the model: " + mismatches.joined(separator: "; "))
        }
        return CoreDataLayout(mapping: try makeMapping(ordered), warnings: warnings)
    }

    /// Finds every model entity's row in `Z_PRIMARYKEY` and its table.
    private mutating func placeEntities(_ ordered: [Entity]) throws(StoreError) {
        var missing: [String] = []
        for entity in ordered {
            guard let row = catalog.entity(named: entity.storedName) ?? catalog.entity(named: entity.name) else {
                missing.append(entity.name)
                continue
            }
            if let other = stored.first(where: { $0.value.number == row.number }) {
                mismatches.append("\(other.key) and \(entity.name) are both the store's entity \(row.name)")
                continue
            }
            guard let table = catalog.table(of: row) else {
                let expected = "Z" + catalog.root(of: row).name.uppercased()
                mismatches.append("it has no table \(expected) (\(entity.name))")
                continue
            }
            stored[entity.name] = row
            tables[entity.name] = table
            for system in ["Z_PK", "Z_ENT"] where try catalog.column(system, in: table) == nil {
                let role = system == "Z_PK" ? "the key" : "the entity number"
                mismatches.append("table \(table) has no column \(system) (\(role) of \(entity.name))")
            }
        }
        if !missing.isEmpty {
            let list = missing.count == 1 ? "entity \(missing[0])" : "entities \(StoreVerifier.list(missing))"
            warnings.append("the store holds no \(list) of the model (not in its Z_PRIMARYKEY table); left out")
        }
    }

    /// The entity of the lineage of `entity` that declares the property `name`.
    func declarer(of name: String, in entity: Entity) -> Entity {
        schema.lineage(of: entity).first { $0.property(named: name) != nil } ?? entity
    }

    /// The mapping: entity tables, numbers and columns, and the relationships found.
    private func makeMapping(_ ordered: [Entity]) throws(StoreError) -> StoreMapping {
        var entities: [String: EntityMapping] = [:]
        var numbers: [String: Int] = [:]
        let order = Dictionary(ordered.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in ordered {
            guard let row = stored[entity.name], let table = tables[entity.name] else { continue }
            numbers[entity.name] = row.number
            var columns: [String: String] = [:]
            for property in schema.allProperties(of: entity) {
                guard case .attribute(let attribute) = property, !attribute.isTransient else { continue }
                let key = "\(declarer(of: attribute.name, in: entity).name).\(attribute.name)"
                if let column = assigned[key] { columns[attribute.name] = column }
                for field in compositeFields(of: attribute) {
                    if let column = assigned[key + "." + field.name] { columns[attribute.name + "." + field.name] = column }
                }
            }
            var shared: [Int]? = nil
            if catalog.tableMates(of: row).count > 1 {
                let family = catalog.family(of: row)
                let modelled = stored.filter { family.contains($0.value.number) }
                    .sorted { (order[$0.key] ?? 0) < (order[$1.key] ?? 0) }.map(\.value.number)
                shared = modelled + family.subtracting(modelled).sorted()
            }
            entities[entity.name] = EntityMapping(
                table: table, primaryKey: "Z_PK", columns: columns, entityColumn: "Z_ENT", entityNumbers: shared)
        }
        return StoreMapping(
            .coreData, entities: entities, relationships: relationships, entityNumbers: numbers,
            dates: .secondsSinceReferenceDate)
    }

    /// The fields of a composite (Codable struct) attribute; empty for any other.
    func compositeFields(of attribute: Attribute) -> [Attribute] {
        guard case .named(let name) = attribute.type, let composite = schema.composite(named: name) else { return [] }
        return composite.fields
    }
}
