// An entity: a `@Model` class, a Core Data entity, or a table.

/// One kind of object in the model.
public struct Entity: Sendable, Hashable {
    /// The name, as in the model: `Budget`.
    public var name: String
    /// Stored (and transient) attributes, in declaration order.
    public var attributes: [Attribute]
    /// Relationships to other entities, in declaration order.
    public var relationships: [Relationship]
    /// Computed properties: known, so they can be reported, but never queryable.
    public var computedProperties: [ComputedProperty]
    /// The parent entity, for Core Data entity inheritance.
    public var parent: String?
    /// The name the store knows the entity by, when the model renamed it (Core Data's
    /// `renamingIdentifier`): the store's `Z_PRIMARYKEY` and tables keep the old name.
    public var originalName: String?
    /// Declared abstract: no object is of this entity itself, only of its sub-entities.
    public var isAbstract: Bool
    /// Other names a property is found by, to the property's name: the columns of a
    /// database pq did not create, by their SQL names (`placed_at` for `placedAt`). A
    /// property's own name always wins over another's other name.
    public var otherNames: [String: String] = [:]

    /// An entity `name` with its properties; the other arguments say how the model declares it.
    public init(
        _ name: String, attributes: [Attribute] = [], relationships: [Relationship] = [],
        computedProperties: [ComputedProperty] = [], parent: String? = nil, originalName: String? = nil,
        abstract: Bool = false
    ) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.computedProperties = computedProperties
        self.parent = parent
        self.originalName = originalName
        self.isAbstract = abstract
    }

    /// The name the store uses: the original name if the model renamed the entity.
    public var storedName: String { originalName ?? name }

    /// The entity's own properties (not inherited ones), attributes first.
    public var properties: [Property] {
        attributes.map(Property.attribute) + relationships.map(Property.relationship)
            + computedProperties.map(Property.computed)
    }

    /// The entity's own property of that name (or, failing that, of that other name,
    /// see `otherNames`).
    public func property(named name: String) -> Property? {
        if let attribute = attributes.first(where: { $0.name == name }) { return .attribute(attribute) }
        if let relationship = relationships.first(where: { $0.name == name }) { return .relationship(relationship) }
        if let computed = computedProperties.first(where: { $0.name == name }) { return .computed(computed) }
        if let own = otherNames[name], own != name { return property(named: own) }
        return nil
    }

    /// Whether `property(named:)` finds a property, without making its value: the
    /// checker asks this of every entity when a query names none.
    func hasProperty(named name: String) -> Bool {
        if attributes.contains(where: { $0.name == name }) || relationships.contains(where: { $0.name == name })
            || computedProperties.contains(where: { $0.name == name })
        {
            return true
        }
        guard !otherNames.isEmpty, let own = otherNames[name], own != name else { return false }
        return hasProperty(named: own)
    }
}
