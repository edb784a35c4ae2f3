// `--model` on a PostgreSQL database pq did not create: Swift `@Model` classes
// mapped onto the tables the catalog lists, by name.
//
// An entity's table is the one named as the entity is, in snake_case, singular
// or plural (`Budget` → `budget`, `budgets`; `TripTag` → `trip_tag`, `trip_tags`),
// matched exactly first and then ignoring case; its key is the table's one-column
// primary key. An attribute's column is named as the attribute or in snake_case
// (`createdAt` → `created_at`), and its type must fit the column's: any integer
// type for int2/int4/int8, Double or Float or Decimal for the float and numeric
// types, String (or a String enum) for text types and PostgreSQL enum types, Date
// for timestamptz/timestamp/date, Bool, UUID, Data for bytea. A to-one is the
// column `<name>_id` (or `<name>Id`, or `<name>`); a to-many whose inverse is a
// to-one is that column on the other side; one without is the foreign key the
// destination's table has to the source's, or a join table; a many-to-many is the
// join table holding foreign keys to both tables. Every mismatch — a missing
// table, column or foreign key, a type that does not fit — is listed in one error.

import PredicateQuery
import PredicateQueryStore

/// Maps a model schema onto a `PostgresCatalog`'s tables.
struct PostgresModelMatching {
    let catalog: PostgresCatalog
    let schema: Schema
    private(set) var mismatches: [String] = []
    private var tableOf: [String: PostgresCatalog.Table] = [:]
    private var entities: [String: EntityMapping] = [:]
    private var relationships: [String: RelationshipMapping] = [:]

    init(catalog: PostgresCatalog, schema: Schema) {
        self.catalog = catalog
        self.schema = schema
    }

    /// The mapping, or an error listing every mismatch.
    mutating func mapping() throws(StoreError) -> StoreMapping {
        for entity in schema.entities { matchEntity(entity) }
        for entity in schema.entities where tableOf[entity.name] != nil {
            for property in schema.allProperties(of: entity) {
                if case .relationship(let relationship) = property, !relationship.isToMany {
                    matchToOne(relationship, of: entity)
                }
            }
        }
        for entity in schema.entities where tableOf[entity.name] != nil {
            for property in schema.allProperties(of: entity) {
                if case .relationship(let relationship) = property, relationship.isToMany {
                    matchToMany(relationship, of: entity)
                }
            }
        }
        guard mismatches.isEmpty else {
            let count = mismatches.count
            throw StoreError(
                "the database does not match the model (\(count) \(count == 1 ? "difference" : "differences")):\n  "
                    + mismatches.joined(separator: "\n  "), kind: .unavailable)
        }
        var numbers: [String: Int] = [:]
        for (index, entity) in schema.entities.enumerated() { numbers[entity.name] = index + 1 }
        return StoreMapping(
            .plain, entities: entities, relationships: relationships, entityNumbers: numbers, dates: .secondsSince1970)
    }

    // MARK: - Names

    /// The first candidate name a table or column has: exactly, then ignoring case.
    private static func find<T>(_ candidates: [String], in items: [T], name: (T) -> String) -> T? {
        for candidate in candidates {
            if let found = items.first(where: { name($0) == candidate }) { return found }
        }
        for candidate in candidates {
            if let found = items.first(where: { name($0).lowercased() == candidate.lowercased() }) { return found }
        }
        return nil
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    private static func quoted(_ names: [String]) -> String {
        names.map { "'\($0)'" }.joined(separator: ", ")
    }

    // MARK: - Entities and attributes

    private mutating func matchEntity(_ entity: Entity) {
        if entity.parent != nil || entity.isAbstract {
            mismatches.append("\(entity.name) takes part in inheritance, which pq does not map onto an existing database")
            return
        }
        let snake = PostgresSchemaNaming.snakeCase(entity.storedName)
        let candidates = Self.unique([
            entity.storedName, snake, EnglishPlural.of(snake), EnglishPlural.of(entity.storedName),
        ])
        guard let table = Self.find(candidates, in: catalog.tables, name: \.name) else {
            mismatches.append("no table for \(entity.name) (looked for \(Self.quoted(candidates)))")
            return
        }
        guard table.primaryKey.count == 1, let key = table.primaryKey.first else {
            mismatches.append("table '\(table.name)' (\(entity.name)) has no one-column primary key to tell objects apart by")
            return
        }
        tableOf[entity.name] = table
        var columns: [String: String] = [:]
        var readAsText: Set<String> = []
        for property in schema.allProperties(of: entity) {
            guard case .attribute(let attribute) = property, !attribute.isTransient else { continue }
            let names = Self.unique([attribute.storedName, PostgresSchemaNaming.snakeCase(attribute.storedName)])
            guard let column = Self.find(names, in: table.columns, name: \.name) else {
                mismatches.append(
                    "table '\(table.name)' has no column for \(entity.name).\(attribute.name) (looked for \(Self.quoted(names)))")
                continue
            }
            guard fits(attribute.type, column) else {
                mismatches.append(
                    "\(entity.name).\(attribute.name) is \(attribute.type), but '\(table.name).\(column.name)' is \(column.displayType)"
                )
                continue
            }
            columns[attribute.name] = column.name
            if column.typeKind == "e" { readAsText.insert(column.name) }
        }
        var mapped = EntityMapping(table: table.name, primaryKey: key.name, columns: columns)
        if !readAsText.isEmpty { mapped.columnsReadAsText = readAsText }
        entities[entity.name] = mapped
    }

    /// Whether values of an attribute type can be read from and compared with a column.
    private func fits(_ type: AttributeType, _ column: PostgresCatalog.Column) -> Bool {
        if column.typeKind == "e" {
            guard case .named(let name) = type, let enumType = schema.enumType(named: name) else { return type == .string }
            return enumType.rawType == .string
        }
        let plain = PostgresIntrospection.plainType(of: column)
        switch type {
        case .integer: if case .integer? = plain { return true } else { return false }
        case .double, .float, .decimal: return plain == .double || plain == .float || plain == .decimal
        case .string, .url: return plain == .string
        case .bool, .date, .uuid, .data: return plain == type
        case .named(let name):
            guard let enumType = schema.enumType(named: name) else { return false }
            if enumType.rawType == .string { return plain == .string }
            if case .integer? = plain { return true } else { return false }
        case .transformable: return false
        }
    }

    // MARK: - Relationships

    /// The one-column foreign keys of `table` to `target`'s key, by column.
    private func foreignKeys(of table: PostgresCatalog.Table, to target: PostgresCatalog.Table) -> [PostgresCatalog.Column] {
        table.foreignKeys.compactMap { key in
            guard key.referencedTable == target.oid, key.columns.count == 1,
                key.referencedColumns == target.primaryKey.map(\.number)
            else { return nil }
            return table.column(number: key.columns[0])
        }
    }

    private mutating func matchToOne(_ relationship: Relationship, of entity: Entity) {
        let label = "\(entity.name).\(relationship.name)"
        guard let table = tableOf[entity.name], let destination = tableOf[relationship.destination] else { return }
        let stored = relationship.storedName
        let names = Self.unique([
            stored + "_id", PostgresSchemaNaming.snakeCase(stored) + "_id", stored + "Id", stored,
            PostgresSchemaNaming.snakeCase(stored),
        ])
        let keys = foreignKeys(of: table, to: destination)
        guard let column = Self.find(names, in: keys, name: \.name) ?? Self.find(names, in: table.columns, name: \.name)
        else {
            mismatches.append(
                "table '\(table.name)' has no foreign key for \(label) (looked for \(Self.quoted(names)))")
            return
        }
        relationships["\(entity.name).\(relationship.name)"] = .foreignKey(column: column.name)
    }

    private mutating func matchToMany(_ relationship: Relationship, of entity: Entity) {
        let label = "\(entity.name).\(relationship.name)"
        guard let table = tableOf[entity.name], let destination = tableOf[relationship.destination] else { return }
        let inverse = relationship.inverse.flatMap { name in
            schema.entity(named: relationship.destination).flatMap { schema.property(named: name, of: $0) }
        }
        if case .relationship(let back)? = inverse, !back.isToMany {
            if case .foreignKey(let column)? = relationships["\(relationship.destination).\(back.name)"] {
                relationships[label] = .inverseForeignKey(column: column)
            }
            return  // a missing foreign key is reported with the to-one
        }
        let isManyToMany: Bool
        if case .relationship(let back)? = inverse { isManyToMany = back.isToMany } else { isManyToMany = false }
        if !isManyToMany {
            let keys = foreignKeys(of: destination, to: table)
            if keys.count == 1, let column = keys.first {
                relationships[label] = .inverseForeignKey(column: column.name)
                return
            }
        }
        let joins = catalog.tables.compactMap { join -> (PostgresCatalog.Table, String, String)? in
            let toSource = foreignKeys(of: join, to: table)
            let toDestination = foreignKeys(of: join, to: destination)
            if table.oid == destination.oid {
                guard toSource.count == 2 else { return nil }
                return (join, toSource[0].name, toSource[1].name)
            }
            guard toSource.count == 1, toDestination.count == 1, join.oid != table.oid, join.oid != destination.oid else {
                return nil
            }
            return (join, toSource[0].name, toDestination[0].name)
        }
        guard joins.count == 1, let (join, source, target) = joins.first else {
            mismatches.append(
                joins.isEmpty
                    ? "no foreign key or join table links '\(table.name)' to '\(destination.name)' for \(label)"
                    : "several join tables link '\(table.name)' and '\(destination.name)' for \(label) (\(Self.quoted(joins.map(\.0.name))))"
            )
            return
        }
        // A self-join's two sides: the inverse (if declared and already mapped) takes the other direction.
        if table.oid == destination.oid, case .relationship(let back)? = inverse,
            case .joinTable(_, let backSource, _)? = relationships["\(relationship.destination).\(back.name)"]
        {
            relationships[label] = .joinTable(
                table: join.name, sourceColumn: backSource == source ? target : source,
                destinationColumn: backSource == source ? source : target)
            return
        }
        relationships[label] = .joinTable(table: join.name, sourceColumn: source, destinationColumn: target)
    }
}

extension PostgresStore {
    /// Opens the database `url` names with a model's schema (Swift `@Model` sources),
    /// mapped onto its tables by name (`PostgresModelMatching`); every mismatch is
    /// listed in the one error thrown.
    public static func open(_ url: String, schema: Schema) throws(StoreError) -> PostgresStore {
        let connection = try PostgresConnection(url)
        let catalog = try PostgresCatalog(connection: connection)
        var matching = PostgresModelMatching(catalog: catalog, schema: schema)
        return PostgresStore(schema: schema, mapping: try matching.mapping(), connection: connection)
    }
}
