// The tables a store creates for its mapping, as SQL statements, for SQLite and
// PostgreSQL alike: entity tables (shared by an entity hierarchy), an index per
// foreign key, join tables with their primary key and an index the other way
// round, and (where the database makes them, as Core Data does) unique indexes.
// What differs between the databases is only spelling: `TableSpelling`.

/// How a database spells the tables a store creates.
package struct TableSpelling {
    /// The type of a table's primary key column.
    package var primaryKey: String
    /// The type of the entity number and version columns (`Z_ENT`, `Z_OPT`).
    package var entityNumber: String
    /// The type of a foreign key column, and of a join table's two columns.
    package var foreignKey: String
    /// The end of an index's name: Core Data's `_INDEX`, or `_index`.
    package var indexSuffix: String
    /// Whether a unique attribute gets an index `Z_<Entity>_UNIQUE_<name>`.
    package var uniqueIndexes: Bool
    /// The type of an attribute's column.
    package var attribute: (AttributeType) -> String

    package init(
        primaryKey: String, entityNumber: String, foreignKey: String, indexSuffix: String, uniqueIndexes: Bool,
        attribute: @escaping (AttributeType) -> String
    ) {
        self.primaryKey = primaryKey
        self.entityNumber = entityNumber
        self.foreignKey = foreignKey
        self.indexSuffix = indexSuffix
        self.uniqueIndexes = uniqueIndexes
        self.attribute = attribute
    }
}

extension StoreMapping {
    /// The statements that create the tables and indexes of `schema` in this layout.
    package func tableStatements(for schema: Schema, spelling: TableSpelling) -> [String] {
        let quote = SQLIdentifier.quoted
        var statements: [String] = []
        for table in entityTables(for: schema) {
            let definitions =
                ["\(quote(table.primaryKey)) \(spelling.primaryKey) PRIMARY KEY"]
                + table.columns.map { column in
                    switch column.content {
                    case .entityNumber, .version: "\(quote(column.name)) \(spelling.entityNumber)"
                    case .foreignKey: "\(quote(column.name)) \(spelling.foreignKey)"
                    case .attribute(let type): "\(quote(column.name)) \(spelling.attribute(type))"
                    }
                }
            statements.append("CREATE TABLE \(quote(table.name)) (\(definitions.joined(separator: ", ")))")
        }
        let (foreignKeys, joinTables) = relationshipTables(for: schema)
        for (table, column) in foreignKeys {
            statements.append(
                "CREATE INDEX IF NOT EXISTS \(quote("\(table)_\(column)\(spelling.indexSuffix)")) ON \(quote(table)) (\(quote(column)))"
            )
        }
        for join in joinTables {
            let (table, source, destination) = (join.name, join.source, join.destination)
            let key = spelling.foreignKey
            statements.append(
                "CREATE TABLE \(quote(table)) (\(quote(source)) \(key), \(quote(destination)) \(key), PRIMARY KEY (\(quote(source)), \(quote(destination))))"
            )
            statements.append(
                "CREATE INDEX \(quote("\(table)_\(destination)\(spelling.indexSuffix)")) ON \(quote(table)) (\(quote(destination)), \(quote(source)))"
            )
        }
        guard spelling.uniqueIndexes else { return statements }
        for entity in schema.entities {
            guard let mapped = self.entity(entity.name) else { continue }
            for attribute in entity.attributes where attribute.isUnique {
                guard let column = mapped.columns[attribute.name] else { continue }
                statements.append(
                    "CREATE UNIQUE INDEX \(quote("Z_\(entity.name)_UNIQUE_\(attribute.name)")) ON \(quote(mapped.table)) (\(quote(column)))"
                )
            }
        }
        return statements
    }
}
