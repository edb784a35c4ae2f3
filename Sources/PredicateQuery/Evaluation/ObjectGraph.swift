// Objects in memory: the evaluator's data, and what the store writes and reads.
//
// Each object has an entity, a key (its primary key in a store), attribute
// values, and links. Linking keeps inverses in step, so a graph is always
// consistent: setting `transaction.budget` also adds the transaction to
// `budget.transactions`.

/// Identifies an object: its entity and its key, unique within the entity's table.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name of the object's entity.
    public var entity: String
    /// The object's key, unique within its entity (a store's primary key).
    public var key: Int64

    /// The object of `entity` with `key`.
    public init(_ entity: String, _ key: Int64) {
        self.entity = entity
        self.key = key
    }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.key, lhs.entity) < (rhs.key, rhs.entity)
    }

    public var description: String { "\(entity)#\(key)" }
}

/// One object: attribute values by attribute name, and links by relationship name.
public struct GraphObject: Sendable {
    /// Which object it is.
    public var id: ObjectID
    /// Its attribute values, by attribute name; a missing attribute is nil.
    public var values: [String: Value]
    /// The object each to-one relationship points to, by relationship name; missing when nil.
    public var toOne: [String: ObjectID]
    /// The objects each to-many relationship holds, by relationship name.
    public var toMany: [String: [ObjectID]]

    /// The value of an attribute; nil attributes are `.null`.
    public func value(_ attribute: String) -> Value { values[attribute] ?? .null }
}

/// A consistent set of objects of a schema.
public struct ObjectGraph: Sendable {
    /// The schema the objects belong to.
    public let schema: Schema
    /// Every object, by identifier.
    public private(set) var objects: [ObjectID: GraphObject] = [:]
    /// The objects of each entity (exactly that entity, not its sub-entities), in key order.
    public private(set) var objectsByEntity: [String: [ObjectID]] = [:]
    private var nextKey: [String: Int64] = [:]

    /// An empty graph of objects of `schema`.
    public init(schema: Schema) {
        self.schema = schema
    }

    /// The table a key must be unique in: the root of the entity's hierarchy.
    private func keySpace(_ entity: String) -> String {
        schema.entity(named: entity).flatMap { schema.lineage(of: $0).last?.name } ?? entity
    }

    /// Adds an object with the next free key (or `key`), and returns its ID.
    @discardableResult
    public mutating func insert(_ entity: String, _ values: [String: Value] = [:], key: Int64? = nil) -> ObjectID {
        let space = keySpace(entity)
        let assigned = key ?? (nextKey[space] ?? 1)
        nextKey[space] = max(nextKey[space] ?? 1, assigned + 1)
        let id = ObjectID(entity, assigned)
        objects[id] = GraphObject(id: id, values: values.filter { !$0.value.isNull }, toOne: [:], toMany: [:])
        var ids = objectsByEntity[entity, default: []]
        ids.append(id)
        if let last = ids.dropLast().last, last.key > assigned { ids.sort() }
        objectsByEntity[entity] = ids
        return id
    }

    /// The object with identifier `id`, or nil if the graph has none.
    public subscript(id: ObjectID) -> GraphObject? { objects[id] }

    /// Sets an attribute value.
    public mutating func set(_ attribute: String, of id: ObjectID, to value: Value) {
        objects[id]?.values[attribute] = value.isNull ? nil : value
    }

    /// The relationship of that name on the object's entity (or an ancestor).
    private func relationship(_ name: String, of id: ObjectID) -> Relationship? {
        guard let entity = schema.entity(named: id.entity),
            case .relationship(let relationship)? = schema.property(named: name, of: entity)
        else { return nil }
        return relationship
    }

    /// Links `source.relationship` to `destination` (adding to a to-many, replacing a
    /// to-one), and updates the inverse.
    public mutating func link(_ source: ObjectID, _ name: String, to destination: ObjectID) {
        guard let relationship = relationship(name, of: source) else { return }
        attach(source, relationship, destination)
        if let inverse = relationship.inverse, let back = self.relationship(inverse, of: destination) {
            attach(destination, back, source)
        }
    }

    private mutating func attach(_ source: ObjectID, _ relationship: Relationship, _ destination: ObjectID) {
        if relationship.isToMany {
            var list = objects[source]?.toMany[relationship.name] ?? []
            guard !list.contains(destination) else { return }
            list.append(destination)
            list.sort()
            objects[source]?.toMany[relationship.name] = list
        } else {
            if let previous = objects[source]?.toOne[relationship.name], previous != destination,
                let inverse = relationship.inverse
            {
                objects[previous]?.toMany[inverse]?.removeAll { $0 == source }
            }
            objects[source]?.toOne[relationship.name] = destination
        }
    }

    /// Every object of an entity and its sub-entities, in key order.
    public func objects(of entity: String) -> [ObjectID] {
        let family = schema.entities.filter { candidate in
            schema.lineage(of: candidate).contains { $0.name == entity }
        }
        return family.flatMap { objectsByEntity[$0.name] ?? [] }.sorted()
    }
}
