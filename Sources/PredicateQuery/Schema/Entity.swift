// An entity: a `@Model` class, a Core Data entity, or a table.

/// One kind of object in the model.
///
/// A value like any other: copies are independent. Its properties are kept in one
/// shared box, copied on the first change of a copy, so that passing an entity
/// around (the checker, the lowering and the Foundation bridge do, many times a
/// query) costs one reference count rather than one per property list.
public struct Entity: Sendable, Hashable {
    /// The name, as in the model: `Budget`.
    public var name: String {
        get { storage.name }
        _modify {
            makeUnique()
            yield &storage.name
        }
    }
    /// Stored (and transient) attributes, in declaration order.
    public var attributes: [Attribute] {
        get { storage.attributes }
        _modify {
            makeUnique()
            yield &storage.attributes
        }
    }
    /// Relationships to other entities, in declaration order.
    public var relationships: [Relationship] {
        get { storage.relationships }
        _modify {
            makeUnique()
            yield &storage.relationships
        }
    }
    /// Computed properties: known, so they can be reported, but never queryable.
    public var computedProperties: [ComputedProperty] {
        get { storage.computedProperties }
        _modify {
            makeUnique()
            yield &storage.computedProperties
        }
    }
    /// The parent entity, for Core Data entity inheritance.
    public var parent: String? {
        get { storage.parent }
        _modify {
            makeUnique()
            yield &storage.parent
        }
    }
    /// The name the store knows the entity by, when the model renamed it (Core Data's
    /// `renamingIdentifier`): the store's `Z_PRIMARYKEY` and tables keep the old name.
    public var originalName: String? {
        get { storage.originalName }
        _modify {
            makeUnique()
            yield &storage.originalName
        }
    }
    /// Declared abstract: no object is of this entity itself, only of its sub-entities.
    public var isAbstract: Bool {
        get { storage.isAbstract }
        _modify {
            makeUnique()
            yield &storage.isAbstract
        }
    }
    /// Other names a property is found by, to the property's name: the columns of a
    /// database pq did not create, by their SQL names (`placed_at` for `placedAt`). A
    /// property's own name always wins over another's other name.
    public var otherNames: [String: String] {
        get { storage.otherNames }
        _modify {
            makeUnique()
            yield &storage.otherNames
        }
    }

    /// An entity `name` with its properties; the other arguments say how the model declares it.
    public init(
        _ name: String, attributes: [Attribute] = [], relationships: [Relationship] = [],
        computedProperties: [ComputedProperty] = [], parent: String? = nil, originalName: String? = nil,
        abstract: Bool = false
    ) {
        storage = Storage(
            name: name, attributes: attributes, relationships: relationships, computedProperties: computedProperties,
            parent: parent, originalName: originalName, isAbstract: abstract, otherNames: [:])
    }

    /// The properties, shared by copies until one of them changes.
    private var storage: Storage

    /// Gives this copy a box of its own before it changes, if it shares one.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    // Unchecked: a box is changed only through `makeUnique`, when one value alone holds it.
    private final class Storage: @unchecked Sendable {
        var name: String
        var attributes: [Attribute]
        var relationships: [Relationship]
        var computedProperties: [ComputedProperty]
        var parent: String?
        var originalName: String?
        var isAbstract: Bool
        var otherNames: [String: String]

        init(
            name: String, attributes: [Attribute], relationships: [Relationship], computedProperties: [ComputedProperty],
            parent: String?, originalName: String?, isAbstract: Bool, otherNames: [String: String]
        ) {
            self.name = name
            self.attributes = attributes
            self.relationships = relationships
            self.computedProperties = computedProperties
            self.parent = parent
            self.originalName = originalName
            self.isAbstract = isAbstract
            self.otherNames = otherNames
        }

        func copy() -> Storage {
            Storage(
                name: name, attributes: attributes, relationships: relationships, computedProperties: computedProperties,
                parent: parent, originalName: originalName, isAbstract: isAbstract, otherNames: otherNames)
        }
    }

    public static func == (lhs: Entity, rhs: Entity) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let l = lhs.storage
        let r = rhs.storage
        return l.name == r.name && l.attributes == r.attributes && l.relationships == r.relationships
            && l.computedProperties == r.computedProperties && l.parent == r.parent && l.originalName == r.originalName
            && l.isAbstract == r.isAbstract && l.otherNames == r.otherNames
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.name)
        hasher.combine(storage.attributes)
        hasher.combine(storage.relationships)
        hasher.combine(storage.computedProperties)
        hasher.combine(storage.parent)
        hasher.combine(storage.originalName)
        hasher.combine(storage.isAbstract)
        hasher.combine(storage.otherNames)
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
