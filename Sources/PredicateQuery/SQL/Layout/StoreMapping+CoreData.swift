// The Core Data / SwiftData layout, as read off real stores:
// - entity numbers (`Z_ENT`) in alphabetical order of entity name, a sub-entity
//   right after its parent; sub-entities share their root's table;
// - tables `Z` + the root entity's name in capitals, with `Z_PK`, `Z_ENT`, `Z_OPT`;
// - attribute columns `Z` + the (original) name in capitals;
// - a to-one relationship is a column `Z` + its name in capitals;
// - same-named properties of sibling sub-entities sharing a table get numbered
//   columns, `ZTITLE`, `ZTITLE1`, in numbering order (a real store's numbers are
//   read from its data instead, see `CoreDataLayoutDiscovery`);
// - a to-many relationship whose inverse is to-one is that inverse's column;
// - a many-to-many relationship lives in a join table named after the relationship
//   of the lower-numbered entity, `Z_<number><NAME>`, whose columns are
//   `Z_<number of an entity><name of the relationship that points at it>`: for
//   Folder (1), Snippet (2), Tag (3), `Snippet.tags` ↔ `Tag.snippets` is
//   `Z_2TAGS(Z_2SNIPPETS, Z_3TAGS)`.
// A to-many relationship with no inverse (which Core Data warns about) is stored as
// if its inverse were a to-many named like it; pq has not seen a real store with
// one, so that choice is pq's own.

extension StoreMapping {
    /// Entities in Core Data's numbering order: alphabetical, each followed by its sub-entities.
    package static func coreDataOrder(_ schema: Schema) -> [Entity] {
        var ordered: [Entity] = []
        func visit(_ entity: Entity) {
            ordered.append(entity)
            for child in schema.entities.filter({ $0.parent == entity.name }).sorted(by: { $0.name < $1.name }) {
                visit(child)
            }
        }
        let roots = schema.entities.filter { $0.parent == nil || schema.entity(named: $0.parent ?? "") == nil }
        for root in roots.sorted(by: { $0.name < $1.name }) { visit(root) }
        return ordered
    }

    static func coreData(_ schema: Schema) -> StoreMapping {
        let placements = placements(schema)
        let numbers = Dictionary(uniqueKeysWithValues: placements.map { ($0.entity.name, $0.number) })
        let names = columnNames(placements)
        var entities: [String: EntityMapping] = [:]
        var relationships: [String: RelationshipMapping] = [:]
        for placement in placements {
            let entity = placement.entity
            var columns: [String: String] = [:]
            for property in schema.allProperties(of: entity) {
                guard case .attribute(let attribute) = property, !attribute.isTransient else { continue }
                columns[attribute.name] = names[declarer(of: attribute.name, in: entity, schema) + "." + attribute.name]
            }
            entities[entity.name] = EntityMapping(
                table: "Z" + placement.root.storedName.uppercased(), primaryKey: "Z_PK", entityColumn: "Z_ENT",
                entityNumbers: placement.sharedNumbers, columns: columns)
            for property in schema.allProperties(of: entity) {
                guard case .relationship(let relationship) = property else { continue }
                var mapping = coreDataRelationship(relationship, of: entity, schema: schema, numbers: numbers)
                if !relationship.isToMany,
                    let column = names[declarer(of: relationship.name, in: entity, schema) + "." + relationship.name]
                {
                    mapping = .foreignKey(column: column)
                } else if case .inverseForeignKey = mapping, let inverse = relationship.inverse,
                    let destination = schema.entity(named: relationship.destination),
                    let column = names[declarer(of: inverse, in: destination, schema) + "." + inverse]
                {
                    mapping = .inverseForeignKey(column: column)
                }
                relationships["\(entity.name).\(relationship.name)"] = mapping
            }
        }
        return StoreMapping(
            layout: .coreData, entities: entities, relationships: relationships, entityNumbers: numbers,
            dateEncoding: .secondsSinceReferenceDate)
    }

    /// The column of every stored attribute and to-one relationship, by
    /// `Declarer.property`: `Z` + the name in capitals; when sibling sub-entities
    /// sharing a table declare properties of the same name, the later ones (in
    /// numbering order) get a number, `ZTITLE1`, `ZTITLE2`, as Core Data does.
    private static func columnNames(_ placements: [Placement]) -> [String: String] {
        var names: [String: String] = [:]
        var used: [String: Set<String>] = [:]
        for placement in placements {
            let table = placement.root.name
            for property in placement.entity.properties {
                let stored: String
                switch property {
                case .attribute(let attribute) where !attribute.isTransient: stored = attribute.storedName
                case .relationship(let relationship) where !relationship.isToMany: stored = relationship.storedName
                default: continue
                }
                let base = "Z" + stored.uppercased()
                var column = base
                var suffix = 0
                while used[table, default: []].contains(column) {
                    suffix += 1
                    column = base + String(suffix)
                }
                used[table, default: []].insert(column)
                names[placement.entity.name + "." + property.name] = column
            }
        }
        return names
    }

    /// The entity of the lineage of `entity` that declares the property `name`.
    private static func declarer(of name: String, in entity: Entity, _ schema: Schema) -> String {
        (schema.lineage(of: entity).first { $0.property(named: name) != nil } ?? entity).name
    }

    package static func coreDataRelationship(
        _ relationship: Relationship, of entity: Entity, schema: Schema, numbers: [String: Int]
    ) -> RelationshipMapping {
        let name = relationship.storedName.uppercased()
        guard relationship.isToMany else { return .foreignKey(column: "Z" + name) }
        let inverse = relationship.inverse.flatMap { inverseName in
            schema.entity(named: relationship.destination).flatMap { schema.property(named: inverseName, of: $0) }
        }
        if case .relationship(let inverseRelationship)? = inverse, !inverseRelationship.isToMany {
            return .inverseForeignKey(column: "Z" + inverseRelationship.storedName.uppercased())
        }
        // Many-to-many (or to-many without an inverse): a join table.
        let inverseName: String
        if case .relationship(let inverseRelationship)? = inverse {
            inverseName = inverseRelationship.storedName.uppercased()
        } else {
            inverseName = name
        }
        let sourceNumber = numbers[entity.name] ?? 0
        let destinationNumber = numbers[relationship.destination] ?? 0
        // Named after the lower-numbered entity's relationship; for a relationship
        // between an entity and itself, after the one whose name sorts first.
        let ownsTable = inverse == nil || (sourceNumber, name) <= (destinationNumber, inverseName)
        let table = ownsTable ? "Z_\(sourceNumber)\(name)" : "Z_\(destinationNumber)\(inverseName)"
        let sourceColumn = "Z_\(sourceNumber)\(inverseName)"
        var destinationColumn = "Z_\(destinationNumber)\(name)"
        if destinationColumn == sourceColumn { destinationColumn += "1" }
        return .joinTable(table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn)
    }
}
