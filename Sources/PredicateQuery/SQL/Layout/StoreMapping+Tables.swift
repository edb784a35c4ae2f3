// The tables a mapping lays a schema out in, as every store creates and fills
// them: one per entity hierarchy (sub-entities add their columns to their root's
// table), the columns an entity's rows fill, the foreign keys to index, and the
// join tables of many-to-many relationships with the links they hold. Each store
// spells the column types in its own dialect.

/// A table of entity rows: its name, integer primary key and other columns.
package struct EntityTable: Sendable, Hashable {
    public var name: String
    public var primaryKey: String
    public var columns: [Column]

    /// A column and what it holds, for the store to give it a type.
    public struct Column: Sendable, Hashable {
        public var name: String
        public var content: Content
    }

    public enum Content: Sendable, Hashable {
        /// The entity number (`Z_ENT`) of a table several entities share.
        case entityNumber
        /// Core Data's row version, `Z_OPT`.
        case version
        case attribute(AttributeType)
        /// The key of a to-one relationship's destination.
        case foreignKey
    }
}

/// A table of many-to-many links: one row per pair of keys, the pair its primary key.
package struct JoinTable: Sendable, Hashable {
    public var name: String
    /// The column of the key of the object the relationship starts from.
    public var source: String
    /// The column of the key of the element.
    public var destination: String
}

extension StoreMapping {
    /// Every entity table, in Core Data's entity order, each column once.
    package func entityTables(for schema: Schema) -> [EntityTable] {
        var tables: [EntityTable] = []
        for entity in Self.coreDataOrder(schema) {
            guard let mapped = self.entity(entity.name) else { continue }
            var columns: [EntityTable.Column] = []
            if let entityColumn = mapped.entityColumn { columns.append(.init(name: entityColumn, content: .entityNumber)) }
            if layout == .coreData { columns.append(.init(name: "Z_OPT", content: .version)) }
            for property in entity.properties {
                switch property {
                case .attribute(let attribute) where !attribute.isTransient:
                    if let column = mapped.columns[attribute.name] {
                        columns.append(.init(name: column, content: .attribute(attribute.type)))
                    }
                case .relationship(let relationship):
                    if case .foreignKey(let column)? = self.relationship(relationship.name, of: entity.name) {
                        columns.append(.init(name: column, content: .foreignKey))
                    }
                default: break
                }
            }
            if let index = tables.firstIndex(where: { $0.name == mapped.table }) {
                for column in columns where !tables[index].columns.contains(where: { $0.name == column.name }) {
                    tables[index].columns.append(column)
                }
            } else {
                tables.append(EntityTable(name: mapped.table, primaryKey: mapped.primaryKey, columns: columns))
            }
        }
        return tables
    }

    /// What an entity's rows fill besides the key: its stored attributes (own and
    /// inherited) that have a column, and its to-one relationships with theirs.
    public func rowContents(
        of entity: Entity, in schema: Schema
    ) -> (
        attributes: [Attribute], toOnes: [(relationship: Relationship, column: String)]
    ) {
        let columns = self.entity(entity.name)?.columns ?? [:]
        var attributes: [Attribute] = []
        var toOnes: [(relationship: Relationship, column: String)] = []
        for property in schema.allProperties(of: entity) {
            switch property {
            case .attribute(let attribute) where !attribute.isTransient && columns[attribute.name] != nil:
                attributes.append(attribute)
            case .relationship(let relationship):
                if case .foreignKey(let column)? = self.relationship(relationship.name, of: entity.name) {
                    toOnes.append((relationship, column))
                }
            default: break
            }
        }
        return (attributes, toOnes)
    }

    /// The foreign-key columns of to-one relationships (a store indexes them), and
    /// the join tables of many-to-many relationships, each join table once.
    package func relationshipTables(
        for schema: Schema
    ) -> (foreignKeys: [(table: String, column: String)], joinTables: [JoinTable]) {
        var foreignKeys: [(table: String, column: String)] = []
        var joinTables: [JoinTable] = []
        for entity in schema.entities {
            for relationship in entity.relationships {
                switch self.relationship(relationship.name, of: entity.name) {
                case .foreignKey(let column)?:
                    if let table = self.entity(entity.name)?.table { foreignKeys.append((table, column)) }
                case .joinTable(let table, let source, let destination)?:
                    if !joinTables.contains(where: { $0.name == table }) {
                        joinTables.append(JoinTable(name: table, source: source, destination: destination))
                    }
                default: break
                }
            }
        }
        return (foreignKeys, joinTables)
    }

    /// The links `graph` holds, per many-to-many relationship of every entity (its
    /// own and inherited ones): the join table and the pairs (object key, element
    /// key). A relationship and its inverse give the same links, each its own way
    /// round, so a store inserts them ignoring pairs already there.
    package func links(in graph: ObjectGraph, of schema: Schema) -> [(table: JoinTable, pairs: [(Int64, Int64)])] {
        var links: [(table: JoinTable, pairs: [(Int64, Int64)])] = []
        for entity in schema.entities {
            for property in schema.allProperties(of: entity) {
                guard case .relationship(let relationship) = property,
                    case .joinTable(let table, let source, let destination)? = self.relationship(
                        relationship.name, of: entity.name)
                else { continue }
                var pairs: [(Int64, Int64)] = []
                for id in graph.objectsByEntity[entity.name] ?? [] {
                    for element in graph[id]?.toMany[relationship.name] ?? [] { pairs.append((id.key, element.key)) }
                }
                links.append((JoinTable(name: table, source: source, destination: destination), pairs))
            }
        }
        return links
    }
}
