// The plain layout: tables and columns named as the schema names them.
//
// `Budget(id INTEGER PRIMARY KEY, name, "limit", …)` (the key is `pk` when an
// attribute is called `id`); a to-one relationship is a
// column `<name>_id`; a to-many relationship whose inverse is to-one is that
// column on the destination; other to-many relationships live in a join table
// `<Entity>_<relationship>(<Entity>_id, <Destination>_id)`. Sub-entities get
// their own tables in this layout only if the schema has no inheritance; with
// inheritance, they share the root's table and an `entity` column tells them apart.

extension StoreMapping {
    static func plain(_ schema: Schema) -> StoreMapping {
        let placements = placements(schema)
        var entities: [String: EntityMapping] = [:]
        var relationships: [String: RelationshipMapping] = [:]
        for placement in placements {
            let entity = placement.entity
            entities[entity.name] = EntityMapping(
                table: placement.root.name, primaryKey: primaryKeyName(for: placement.root, in: schema),
                entityColumn: placement.sharedNumbers == nil ? nil : "entity", entityNumbers: placement.sharedNumbers,
                columns: attributeColumns(of: entity, in: schema) { $0.storedName })
            for property in schema.allProperties(of: entity) {
                guard case .relationship(let relationship) = property else { continue }
                relationships["\(entity.name).\(relationship.name)"] = plainRelationship(
                    relationship, of: entity, schema: schema)
            }
        }
        return StoreMapping(
            layout: .plain, entities: entities, relationships: relationships,
            entityNumbers: Dictionary(uniqueKeysWithValues: placements.map { ($0.entity.name, $0.number) }),
            dateEncoding: .secondsSinceReferenceDate)
    }

    /// `id`, unless an attribute of the table already uses that name; then `pk`, `_pk`, …
    private static func primaryKeyName(for root: Entity, in schema: Schema) -> String {
        let family = schema.entities.filter { schema.lineage(of: $0).last?.name == root.name }
        let taken = Set(
            family.flatMap { entity in
                schema.allProperties(of: entity).compactMap { property -> String? in
                    guard case .attribute(let attribute) = property else { return nil }
                    return attribute.storedName.lowercased()
                }
            })
        var name = "id"
        for candidate in ["id", "pk", "_pk", "__pk"] where !taken.contains(candidate) {
            name = candidate
            break
        }
        return name
    }

    private static func plainRelationship(
        _ relationship: Relationship, of entity: Entity, schema: Schema
    )
        -> RelationshipMapping
    {
        guard relationship.isToMany else { return .foreignKey(column: relationship.storedName + "_id") }
        let inverse = relationship.inverse.flatMap { inverseName in
            schema.entity(named: relationship.destination).flatMap { schema.property(named: inverseName, of: $0) }
        }
        if case .relationship(let inverseRelationship)? = inverse, !inverseRelationship.isToMany {
            return .inverseForeignKey(column: inverseRelationship.storedName + "_id")
        }
        // One join table per many-to-many pair, named after the side whose name sorts first.
        if case .relationship(let inverseRelationship)? = inverse,
            (relationship.destination, inverseRelationship.name) < (entity.name, relationship.name)
        {
            return .joinTable(
                table: "\(relationship.destination)_\(inverseRelationship.storedName)",
                sourceColumn: relationship.destination == entity.name ? "\(entity.name)_id2" : "\(entity.name)_id",
                destinationColumn: "\(relationship.destination)_id")
        }
        return .joinTable(
            table: "\(entity.name)_\(relationship.storedName)", sourceColumn: "\(entity.name)_id",
            destinationColumn: relationship.destination == entity.name
                ? "\(relationship.destination)_id2" : "\(relationship.destination)_id")
    }
}
