// Entities for the schema builder: a `@Model` class (and its extensions) to an
// `Entity`.
//
// Stored properties become attributes or, when their type is a model, an array
// of models or an optional of either, relationships; computed properties are
// recorded with the stored properties their getters read; `static` properties
// are not the model's. A superclass that is a model becomes the parent.

import PredicateQuery

/// A relationship before inverses are resolved, with the inverse its declaration names.
struct RelationshipDraft {
    var relationship: Relationship
    /// `inverse: \Root.name`: the root as written (if any) and the name.
    var declaredInverse: (root: String?, name: String)?
    var declaration: Int
    var line: Int
}

extension SwiftSchemaBuilder {
    /// The entity of the model declared at `model`, and its relationships as drafts.
    mutating func buildEntity(_ model: Int) -> (Entity, [RelationshipDraft]) {
        let declaration = declarations[model]
        var entity = Entity(declaration.name, parent: parentModel(of: model).map { declarations[$0].name })
        if inheritanceLoops(from: model) {
            warn("the superclasses of '\(declaration.name)' loop; its superclass is ignored", line: declaration.line, in: model)
            entity.parent = nil
        }
        var drafts: [RelationshipDraft] = []
        var members = declaration.properties.map { (property: $0, declaration: model) }
        for position in extensions[model] ?? [] {
            for property in declarations[position].properties where !property.isStatic {
                if property.isComputed {
                    members.append((property, position))
                } else {
                    warn("extensions cannot add stored properties; '\(property.name)' skipped", line: property.line, in: position)
                }
            }
        }
        let stored = storedPropertyNames(of: model)
        for (property, owner) in members where !property.isStatic {
            if property.isComputed {
                entity.computedProperties.append(
                    ComputedProperty(
                        property.name, typeName: property.typeText ?? "",
                        dependencies: property.getterIdentifiers.filter(stored.contains)))
                includeEnum(of: property, scope: declaration.path)
                continue
            }
            switch storedProperty(property, in: owner, scope: declaration.path) {
            case .attribute(let attribute)?: entity.attributes.append(attribute)
            case .relationship(let draft)?: drafts.append(draft)
            case nil: skippedProperties[declaration.name, default: []].insert(property.name)
            }
        }
        return (entity, drafts)
    }

    /// Adds the enum a computed property returns (`var genre: Genre { … }`) to the
    /// schema, when it has raw values: it belongs to the model's vocabulary, and
    /// diagnostics can name its cases. Nothing is said if it cannot be added.
    private mutating func includeEnum(of property: SwiftPropertyDecl, scope: [String]) {
        guard case .named(let path, let arguments)? = property.type?.unwrapped.base, arguments.isEmpty,
            Self.builtinType(path) == nil, modelName(path, scope: scope) == nil,
            let found = lookup(path, scope: scope), declarations[found].kind == .enum, isReadableEnum(found)
        else { return }
        _ = enumType(found)
    }

    /// The model a model class inherits from, if its superclass is one.
    func parentModel(of model: Int) -> Int? {
        guard case .named(let path, _)? = declarations[model].inherits.first,
            let name = modelName(path, scope: Array(declarations[model].path.dropLast())), let parent = models[name],
            parent != model
        else { return nil }
        return parent
    }

    /// Following superclasses from `model` leads back to it.
    private func inheritanceLoops(from model: Int) -> Bool {
        var visited: Set<Int> = [model]
        var next = parentModel(of: model)
        while let current = next {
            if current == model { return true }
            guard visited.insert(current).inserted else { return false }
            next = parentModel(of: current)
        }
        return false
    }

    /// The names of the stored properties of a model and its ancestors.
    private func storedPropertyNames(of model: Int) -> Set<String> {
        var names: Set<String> = []
        var visited: Set<Int> = []
        var next: Int? = model
        while let current = next, visited.insert(current).inserted {
            for property in declarations[current].properties where !property.isStatic && !property.isComputed {
                names.insert(property.name)
            }
            next = parentModel(of: current)
        }
        return names
    }

    enum StoredProperty {
        case attribute(Attribute)
        case relationship(RelationshipDraft)
    }

    /// A stored property of a model as an attribute or a relationship; nil, with a
    /// warning, if pq cannot read its type.
    private mutating func storedProperty(_ property: SwiftPropertyDecl, in owner: Int, scope: [String]) -> StoredProperty? {
        let options = readOptions(of: property, in: owner)
        guard let type = declaredOrInferredType(of: property, in: owner, scope: scope) else { return nil }
        let (base, optional) = type.unwrapped
        let name = property.name
        let written = property.typeText ?? ""
        func attribute(_ type: AttributeType) -> StoredProperty {
            .attribute(
                Attribute(
                    name, type, optional: optional, defaultValue: property.defaultText, unique: options.isUnique,
                    originalName: options.originalName, transient: options.isTransient,
                    externalStorage: options.isExternalStorage))
        }
        if options.isTransformable {
            return attribute(.transformable(Self.typeName(base) ?? written))
        }
        let resolved = classify(base, scope: scope)
        if options.hasRelationshipAttribute {
            switch resolved {
            case .model, .models: break
            default: warn("@Relationship on '\(name)', whose type is not a model; ignored", line: property.line, in: owner)
            }
        }
        switch resolved {
        case .value(let type):
            return attribute(type)
        case .model(let destination), .models(let destination):
            // Never stored, so no relationship: kept as a transient attribute, so a query that uses it is told so.
            if options.isTransient { return attribute(.transformable(written)) }
            var relationship =
                if case .models = resolved {
                    Relationship(name, toMany: destination, optional: optional)
                } else {
                    Relationship(name, to: destination, optional: optional)
                }
            relationship.deleteRule = options.deleteRule
            relationship.originalName = options.originalName
            return .relationship(
                RelationshipDraft(
                    relationship: relationship, declaredInverse: options.inverse, declaration: owner, line: property.line))
        case .unusable(let reason):
            // A @Transient property is never stored, whatever its type: it stays in the model so a query
            // that uses it is told it is transient (not that it does not exist).
            if options.isTransient {
                return attribute(.transformable(written.isEmpty ? property.defaultText ?? "" : written))
            }
            if property.type == nil && property.initializerType == nil {
                warn(
                    "'\(name)' has no type annotation, and pq cannot tell its type from '\(property.defaultText ?? "")'; skipped",
                    line: property.line, in: owner)
            } else {
                warn("'\(name)' has type '\(written)', \(reason); skipped", line: property.line, in: owner)
            }
            return nil
        }
    }

    /// The name of a named type (`UIColor`), for transformable attributes.
    static func typeName(_ type: SwiftTypeSyntax) -> String? {
        if case .named(let path, _) = type { return path.last }
        return nil
    }
}
