// Foreign keys read as relationships, both ways.
//
// - A one-column foreign key to an entity's key is a to-one relationship named
//   after its column without `_id` (`budget_id` → `budget`); its column stays an
//   attribute too (`budgetId`). A column without the suffix gives the relationship
//   its own name and is no longer an attribute; a key that is also a foreign key
//   names the relationship after the table it points to.
// - The table pointed to gets the inverse to-many, named after the referencing
//   table, plural (`transactions`). Two foreign keys from one table to the same
//   table would give the same name: both are then named after their columns too
//   (`transactionsByBudget`, `transactionsByPreviousBudget`).
// - A join table — exactly two such foreign keys and nothing else but, at most, a
//   one-column key of its own (Fluent's pivot: `trip_tag(id, trip_id, tag_id)`) —
//   is no entity: it gives each side a to-many to the other (`Trip.tags`,
//   `Tag.trips`); one joining a table to itself names its sides after its columns.
// - A name that is taken gets a fallback, and the notes say which; composite
//   foreign keys and ones to tables or columns that are not an entity's key are
//   left out, with the reason.

import PredicateQuery
import PredicateQueryStore

extension PostgresIntrospection {
    /// A to-one relationship made from a foreign key, to be given its inverse
    /// (`source` and `destination` index `entities`).
    struct Link {
        var source: Int
        var name: String
        var column: String
        var destination: Int
    }

    /// A table read as a many-to-many relationship between two entities' tables.
    struct JoinTable {
        var table: PostgresCatalog.Table
        var first: PostgresCatalog.Column
        var firstTable: String
        var second: PostgresCatalog.Column
        var secondTable: String
    }

    /// The one-column foreign keys of a table to another table's one-column primary key.
    private func keyReferences(of table: PostgresCatalog.Table) -> [(column: PostgresCatalog.Column, target: String)] {
        table.foreignKeys.compactMap { key in
            guard key.columns.count == 1, let column = table.column(number: key.columns[0]),
                let target = catalog.table(oid: key.referencedTable),
                target.primaryKey.map(\.number) == key.referencedColumns
            else { return nil }
            return (column, target.oid)
        }
    }

    /// The tables that are only two foreign keys (and, at most, a key of their own).
    func findJoinTables() -> [JoinTable] {
        catalog.tables.compactMap { table in
            let references = keyReferences(of: table)
            guard references.count == 2, table.foreignKeys.count == 2,
                references[0].column.name != references[1].column.name
            else { return nil }
            let linkColumns = Set(references.map(\.column.name))
            let key = table.primaryKey
            let others = table.columns.filter { !linkColumns.contains($0.name) }
            let keyedByLinks = others.isEmpty && (key.isEmpty || Set(key.map(\.name)) == linkColumns)
            let keyedByID = others.count == 1 && key.count == 1 && key[0].name == others[0].name
            guard keyedByLinks || keyedByID else { return nil }
            return JoinTable(
                table: table, first: references[0].column, firstTable: references[0].target,
                second: references[1].column, secondTable: references[1].target)
        }
    }

    private func entityIndex(ofTable oid: String) -> Int? {
        entities.firstIndex { $0.table.oid == oid }
    }

    /// Whether an entity already has a property of this name.
    private func isTaken(_ name: String, in index: Int) -> Bool {
        entities[index].attributes.contains { $0.name == name }
            || entities[index].relationships.contains { $0.name == name }
    }

    // MARK: - To-one

    mutating func addToOneRelationships() {
        for source in entities.indices {
            let table = entities[source].table
            for key in table.foreignKeys {
                let label = "the foreign key '\(table.name).\(key.name)'"
                guard key.columns.count == 1, let column = table.column(number: key.columns[0]) else {
                    let names = key.columns.compactMap { table.column(number: $0)?.name }.joined(separator: ", ")
                    notes.append("\(label) (\(names)) is left out: pq follows only one-column foreign keys")
                    continue
                }
                guard let destination = entityIndex(ofTable: key.referencedTable),
                    key.referencedColumns == [entities[destination].key.number]
                else {
                    notes.append(
                        "\(label) on '\(column.name)' is left out: it refers to a table pq does not read, or to a column that is not its key"
                    )
                    continue
                }
                guard let attribute = entities[source].attributeOfColumn[column.name] else {
                    notes.append("\(label) on '\(column.name)' is left out: its column is left out")
                    continue
                }
                let isKey = column.name == entities[source].key.name
                var preferred: String?
                var replacesAttribute = false
                if isKey {
                    preferred = PostgresSchemaNaming.lowerCamel(PostgresSchemaNaming.singular(entities[destination].table.name))
                } else if let stem = PostgresSchemaNaming.strippingKeySuffix(column.name) {
                    preferred = PostgresSchemaNaming.lowerCamel(stem)
                } else {
                    preferred = attribute
                    replacesAttribute = true
                }
                var name = preferred ?? attribute
                if name != attribute, isTaken(name, in: source) {
                    notes.append(
                        "\(label) gives the relationship '\(attribute)' (in place of the attribute), as '\(entities[source].entity)' already has a property '\(name)'"
                    )
                    name = attribute
                    replacesAttribute = true
                }
                if replacesAttribute {
                    entities[source].attributes.removeAll { $0.name == attribute }
                    entities[source].attributeOfColumn[column.name] = nil
                }
                entities[source].relationships.append(
                    Relationship(
                        name, to: entities[destination].entity, optional: !(isKey || column.isNotNull)))
                relationshipMappings["\(entities[source].entity).\(name)"] = .foreignKey(column: column.name)
                links.append(Link(source: source, name: name, column: column.name, destination: destination))
            }
        }
    }

    // MARK: - Many-to-many

    mutating func addManyToMany(_ joinTables: [JoinTable]) {
        for join in joinTables {
            guard let first = entityIndex(ofTable: join.firstTable), let second = entityIndex(ofTable: join.secondTable) else {
                notes.append(
                    "join table '\(join.table.name)' is left out: a table it joins is not one pq reads")
                continue
            }
            let selfJoin = first == second
            func sideName(towards index: Int, through column: PostgresCatalog.Column) -> String? {
                if selfJoin {
                    return PostgresSchemaNaming.lowerCamel(
                        EnglishPlural.of(PostgresSchemaNaming.strippingKeySuffix(column.name) ?? column.name))
                }
                return PostgresSchemaNaming.toManyName(ofTable: entities[index].table.name)
            }
            let via = PostgresSchemaNaming.upperCamel(join.table.name) ?? ""
            guard let forward = claim(sideName(towards: second, through: join.second), fallbackSuffix: "Via\(via)", in: first),
                let backward = claim(sideName(towards: first, through: join.first), fallbackSuffix: "Via\(via)", in: second),
                forward != backward || !selfJoin
            else {
                notes.append("join table '\(join.table.name)' is left out: the names of its relationships are taken")
                continue
            }
            entities[first].relationships.append(
                Relationship(forward, toMany: entities[second].entity, inverse: backward))
            entities[second].relationships.append(
                Relationship(backward, toMany: entities[first].entity, inverse: forward))
            relationshipMappings["\(entities[first].entity).\(forward)"] = .joinTable(
                table: join.table.name, sourceColumn: join.first.name, destinationColumn: join.second.name)
            relationshipMappings["\(entities[second].entity).\(backward)"] = .joinTable(
                table: join.table.name, sourceColumn: join.second.name, destinationColumn: join.first.name)
        }
    }

    /// `preferred` if it is free in the entity, else `preferred + fallbackSuffix` (noted), else nil.
    private mutating func claim(_ preferred: String?, fallbackSuffix: String, in index: Int) -> String? {
        guard let preferred else { return nil }
        if !isTaken(preferred, in: index) { return preferred }
        let fallback = preferred + fallbackSuffix
        guard PlainName.isPlain(fallback), !isTaken(fallback, in: index) else { return nil }
        notes.append(
            "'\(entities[index].entity)' already has a property '\(preferred)': the relationship is called '\(fallback)'")
        return fallback
    }

    // MARK: - Inverse to-many

    mutating func addInverses() {
        let preferred = links.map { PostgresSchemaNaming.toManyName(ofTable: entities[$0.source].table.name) }
        for (position, link) in links.enumerated() {
            let label =
                "'\(entities[link.destination].entity)' gets no relationship back for '\(entities[link.source].entity).\(link.name)'"
            guard let base = preferred[position] else {
                notes.append("\(label): the table's name is not one pq can spell")
                continue
            }
            let shared =
                links.indices.filter {
                    links[$0].destination == link.destination && preferred[$0] == base
                }.count > 1
            let name: String?
            if shared {
                let byName = base + "By" + link.name.prefix(1).uppercased() + link.name.dropFirst()
                name = isTaken(byName, in: link.destination) ? nil : byName
                if name != nil {
                    notes.append(
                        "several foreign keys of '\(entities[link.source].table.name)' refer to '\(entities[link.destination].table.name)': the relationship back for '\(link.name)' is '\(byName)'"
                    )
                }
            } else {
                name = claim(
                    base, fallbackSuffix: "By" + link.name.prefix(1).uppercased() + link.name.dropFirst(), in: link.destination)
            }
            guard let name else {
                notes.append("\(label): the names it could have are taken")
                continue
            }
            let sourceEntity = entities[link.source].entity
            let destinationEntity = entities[link.destination].entity
            entities[link.destination].relationships.append(Relationship(name, toMany: sourceEntity, inverse: link.name))
            if let index = entities[link.source].relationships.firstIndex(where: { $0.name == link.name }) {
                entities[link.source].relationships[index].inverse = name
            }
            relationshipMappings["\(destinationEntity).\(name)"] = .inverseForeignKey(column: link.column)
        }
    }
}
