// Swift types as query models: a type declares its stored properties and
// relationships once, by key path, and gets a schema entity and typed predicates.
//
//     final class Budget: QueryModel {
//         var name = ""
//         var limit = 0.0
//         var transactions: [Transaction] = []
//
//         static var queryProperties: [QueryProperty<Budget>] {
//             [.attribute(\.name), .attribute(\.limit), .toMany(\.transactions, inverse: \Transaction.budget)]
//         }
//     }
//
// Property names come from the key paths, so they are the Swift names, as in
// SwiftData; `originalName:` renames the stored column.

/// A Swift type that pq can query: its stored properties and relationships.
public protocol QueryModel {
    /// The entity's name; by default the type's name.
    static var entityName: String { get }
    /// The stored attributes, relationships, and the computed and transient
    /// properties a query must not use.
    static var queryProperties: [QueryProperty<Self>] { get }
}

extension QueryModel {
    public static var entityName: String { describedTypeName(Self.self) }

    /// The schema entity this type declares, and the enums its attributes use.
    public static var queryEntity: (entity: Entity, enums: [EnumType]) {
        var entity = Entity(entityName)
        var enums: [EnumType] = []
        for property in queryProperties {
            switch property.declaration {
            case .attribute(let attribute, let enumType):
                entity.attributes.append(attribute)
                if let enumType, !enums.contains(enumType) { enums.append(enumType) }
            case .relationship(let relationship, _):
                entity.relationships.append(relationship)
            case .computed(let computed):
                entity.computedProperties.append(computed)
            }
        }
        return (entity, enums)
    }
}

/// One declared property of a query model.
public struct QueryProperty<Model>: @unchecked Sendable {
    /// The property's name (its Swift name).
    public let name: String
    /// The key path the property was declared with (key paths are immutable values).
    let keyPath: AnyKeyPath
    let declaration: Declaration
    /// How a Foundation predicate reads the property (nil for computed properties).
    let predicateAccess: PredicatePropertyAccess?

    enum Declaration: @unchecked Sendable {
        case attribute(Attribute, EnumType?)
        /// The relationship and the model type at its other end.
        case relationship(Relationship, any QueryModel.Type)
        case computed(ComputedProperty)
    }

    /// Key paths to stored properties name themselves; those to computed properties
    /// (and to properties with observers or wrappers) print without a name, so the
    /// declaration must give it: `.computed(\.genre, name: "genre")`.
    private init(
        _ keyPath: AnyKeyPath, name: String?, access: PredicatePropertyAccess? = nil, _ make: (String) -> Declaration
    ) {
        let name = name ?? KeyPathNames.name(of: keyPath) ?? String(describing: keyPath)
        self.name = name
        self.keyPath = keyPath
        self.declaration = make(name)
        self.predicateAccess = access
    }

    /// A stored attribute: `String`, `Int`, `Double`, `Bool`, `Date`, `UUID`, `URL`,
    /// `Data`, a `QueryEnum`, or an optional of one.
    public static func attribute<V: QueryValue>(
        _ keyPath: KeyPath<Model, V>, name: String? = nil, unique: Bool = false, originalName: String? = nil,
        defaultValue: String? = nil, externalStorage: Bool = false
    ) -> QueryProperty {
        QueryProperty(keyPath, name: name, access: .attribute(keyPath)) { name in
            .attribute(
                Attribute(
                    name, V.queryAttributeType, optional: V.queryIsOptional, defaultValue: defaultValue, unique: unique,
                    originalName: originalName, externalStorage: externalStorage),
                V.queryEnumType)
        }
    }

    /// A `@Transient` stored property: known to the schema, never queried.
    public static func transient<V: QueryValue>(_ keyPath: KeyPath<Model, V>, name: String? = nil, defaultValue: String? = nil)
        -> QueryProperty
    {
        QueryProperty(keyPath, name: name) { name in
            .attribute(
                Attribute(name, V.queryAttributeType, optional: V.queryIsOptional, defaultValue: defaultValue, transient: true),
                V.queryEnumType)
        }
    }

    /// A computed property: known to the schema so that a query naming it is told
    /// why it cannot, never queried.
    public static func computed<V>(
        _ keyPath: KeyPath<Model, V>, name: String, from dependencies: [PartialKeyPath<Model>] = []
    ) -> QueryProperty {
        QueryProperty(keyPath, name: name) { name in
            .computed(
                ComputedProperty(
                    name, typeName: String(describing: V.self),
                    dependencies: dependencies.compactMap { KeyPathNames.name(of: $0) }))
        }
    }

    /// An optional to-one relationship.
    public static func toOne<D: QueryModel>(
        _ keyPath: KeyPath<Model, D?>, name: String? = nil, inverse: PartialKeyPath<D>? = nil,
        deleteRule: Relationship.DeleteRule = .nullify
    ) -> QueryProperty {
        QueryProperty(keyPath, name: name, access: .toOne(keyPath, to: D.self)) { name in
            .relationship(
                Relationship(name, to: D.entityName, optional: true, inverse: inverse.flatMap(KeyPathNames.name), deleteRule: deleteRule),
                D.self)
        }
    }

    /// A to-one relationship that is never nil.
    public static func toOne<D: QueryModel>(
        _ keyPath: KeyPath<Model, D>, name: String? = nil, inverse: PartialKeyPath<D>? = nil,
        deleteRule: Relationship.DeleteRule = .nullify
    ) -> QueryProperty {
        QueryProperty(keyPath, name: name, access: .toOne(keyPath, to: D.self)) { name in
            .relationship(
                Relationship(name, to: D.entityName, optional: false, inverse: inverse.flatMap(KeyPathNames.name), deleteRule: deleteRule),
                D.self)
        }
    }

    /// A to-many relationship (an array of models).
    public static func toMany<D: QueryModel>(
        _ keyPath: KeyPath<Model, [D]>, name: String? = nil, inverse: PartialKeyPath<D>? = nil,
        deleteRule: Relationship.DeleteRule = .nullify
    ) -> QueryProperty {
        QueryProperty(keyPath, name: name, access: .toMany(keyPath, elements: D.self)) { name in
            .relationship(
                Relationship(name, toMany: D.entityName, inverse: inverse.flatMap(KeyPathNames.name), deleteRule: deleteRule),
                D.self)
        }
    }

    /// An optional to-many relationship (an optional array of models).
    public static func toMany<D: QueryModel>(
        _ keyPath: KeyPath<Model, [D]?>, name: String? = nil, inverse: PartialKeyPath<D>? = nil,
        deleteRule: Relationship.DeleteRule = .nullify
    ) -> QueryProperty {
        QueryProperty(keyPath, name: name, access: .toMany(keyPath, elements: D.self)) { name in
            .relationship(
                Relationship(
                    name, toMany: D.entityName, optional: true, inverse: inverse.flatMap(KeyPathNames.name), deleteRule: deleteRule),
                D.self)
        }
    }
}

extension Schema {
    /// The schema of `models` and of every model their relationships reach.
    public init(models: [any QueryModel.Type]) {
        var entities: [Entity] = []
        var enums: [EnumType] = []
        var seen: Set<String> = []
        var pending = models
        while !pending.isEmpty {
            let model = pending.removeFirst()
            guard seen.insert(model.entityName).inserted else { continue }
            let (entity, modelEnums) = model.queryEntity
            entities.append(entity)
            for enumType in modelEnums where !enums.contains(enumType) { enums.append(enumType) }
            pending += model.relatedModels
        }
        self.init(entities: entities, enums: enums)
    }
}

/// `String(describing: T.self)`, made once per type: describing a type reflects
/// (dynamic casts and a `Mirror`), which took a tenth of the time to build a
/// Foundation predicate when the entity's name was asked for.
func describedTypeName<T>(_: T.Type) -> String {
    let key = ObjectIdentifier(T.self)
    if let name = typeNames.withLock({ $0[key] }) { return name }
    let name = String(describing: T.self)
    typeNames.withLock { $0[key] = name }
    return name
}

private let typeNames = Locked<[ObjectIdentifier: String]>([:])

/// Schemas of model types, made once per type: a type's declarations do not change.
private let modelSchemas = Locked<[ObjectIdentifier: Schema]>([:])

extension QueryModel {
    /// The schema of this type and of every model its relationships reach, made
    /// once and kept (reading key path names is slow, and a query needs it each time).
    static var querySchema: Schema {
        let key = ObjectIdentifier(Self.self)
        if let schema = modelSchemas.withLock({ $0[key] }) { return schema }
        let schema = Schema(models: [Self.self])
        modelSchemas.withLock { $0[key] = schema }
        return schema
    }

    /// The declared name of the property `keyPath` leads to, found by key path
    /// equality (for key paths that do not print their names).
    static func declaredName(of keyPath: AnyKeyPath) -> String? {
        queryProperties.first { $0.keyPath == keyPath }?.name
    }

    /// The model types at the other end of this type's relationships.
    static var relatedModels: [any QueryModel.Type] {
        queryProperties.compactMap { property in
            if case .relationship(_, let destination) = property.declaration { return destination }
            return nil
        }
    }
}
