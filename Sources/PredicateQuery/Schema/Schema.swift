// Model metadata: what pq knows about the user's data.
//
// A schema lists entities (with attributes, relationships and computed
// properties), the enums their attributes use, and the Codable structs stored
// inline. It comes from code (these initialisers), from JSON (`Schema+JSON`), from
// Swift model files, or from a store. The checker reads it; nothing in it refers
// to a particular store layout.

/// The entities, enums and Codable structs of a data model.
public struct Schema: Sendable, Hashable {
    /// The entities, in declaration order.
    public var entities: [Entity]
    /// The enums attributes use, with their cases and raw values.
    public var enums: [EnumType]
    /// The Codable structs stored inline in their owners' tables.
    public var composites: [CompositeType]
    /// Other names an entity is found by, to the entity's name: the tables of a
    /// database pq did not create, by their SQL names (`order_items` for
    /// `OrderItem`). An entity's own name always wins over another's other name.
    public var otherEntityNames: [String: String] = [:]

    /// A schema of `entities`, with the enums and Codable structs their attributes use.
    public init(entities: [Entity], enums: [EnumType] = [], composites: [CompositeType] = []) {
        self.entities = entities
        self.enums = enums
        self.composites = composites
    }

    /// The entity with this exact name (or, failing that, this other name, see
    /// `otherEntityNames`).
    public func entity(named name: String) -> Entity? {
        if let entity = entities.first(where: { $0.name == name }) { return entity }
        guard let own = otherEntityNames[name], own != name else { return nil }
        return entities.first { $0.name == own }
    }

    /// The enum with this exact name.
    public func enumType(named name: String) -> EnumType? {
        enums.first { $0.name == name }
    }

    /// The Codable struct with this exact name.
    public func composite(named name: String) -> CompositeType? {
        composites.first { $0.name == name }
    }

    /// The entity and its ancestors, nearest first; stops at an unknown or repeated parent.
    public func lineage(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        var next = entity.parent
        while let name = next, !seen.contains(name), let parent = self.entity(named: name) {
            chain.append(parent)
            seen.insert(name)
            next = parent.parent
        }
        return chain
    }

    /// The property of that name on the entity or an ancestor.
    public func property(named name: String, of entity: Entity) -> Property? {
        if entity.parent == nil { return entity.property(named: name) }
        for owner in lineage(of: entity) {
            if let property = owner.property(named: name) { return property }
        }
        return nil
    }

    /// Whether `property(named:of:)` finds a property, without making its value.
    func hasProperty(named name: String, of entity: Entity) -> Bool {
        if entity.parent == nil { return entity.hasProperty(named: name) }
        return lineage(of: entity).contains { $0.hasProperty(named: name) }
    }

    /// Every property of the entity, inherited ones first.
    public func allProperties(of entity: Entity) -> [Property] {
        if entity.parent == nil { return entity.properties }
        return lineage(of: entity).reversed().flatMap(\.properties)
    }
}

/// A property of an entity, of whichever kind.
public enum Property: Sendable, Hashable {
    /// A stored (or transient) attribute.
    case attribute(Attribute)
    /// A relationship to another entity.
    case relationship(Relationship)
    /// A computed property, which queries cannot use.
    case computed(ComputedProperty)

    /// The property's name in the model.
    public var name: String {
        switch self {
        case .attribute(let attribute): attribute.name
        case .relationship(let relationship): relationship.name
        case .computed(let computed): computed.name
        }
    }
}
