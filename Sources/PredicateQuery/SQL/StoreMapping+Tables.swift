// The tables a mapping lays a schema out in, as every store creates and fills
// them: one per entity hierarchy (sub-entities add their columns to their root's
// table), and the columns an entity's rows fill. Each store spells the column
// types in its own dialect.

/// A table of entity rows: its name, integer primary key and other columns.
public struct EntityTable: Sendable, Hashable {
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

extension StoreMapping {
    /// Every entity table, in Core Data's entity order, each column once.
    public func entityTables(for schema: Schema) -> [EntityTable] {
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
}
