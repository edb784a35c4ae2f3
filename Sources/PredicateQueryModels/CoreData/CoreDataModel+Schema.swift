// A Core Data model becomes a `Schema`: attribute type codes become pq's types
// (Binary → Data, URI → URL, Transformable → an opaque named type), to-many-ness
// and ordering carry over, renaming identifiers become original names, and
// composite attributes (SwiftData's Codable structs) become composite types.
// What pq cannot use (object ID attributes, fetched properties, undefined types)
// is left out with a warning naming it.

import PredicateQuery

extension CoreDataModel {
    /// The schema, and a warning for each property left out. `source` names the model in warnings.
    func schema(source: String) -> (Schema, [ModelWarning]) {
        var warnings: [ModelWarning] = []
        var composites: [CompositeType] = []
        var entities: [PredicateQuery.Entity] = []
        for entity in self.entities {
            var attributes: [PredicateQuery.Attribute] = []
            for attribute in entity.attributes {
                let context = "attribute '\(attribute.name)' of '\(entity.name)'"
                guard
                    let type = Self.type(
                        of: attribute, owner: entity.name, context: context, source: source, composites: &composites,
                        warnings: &warnings)
                else { continue }
                attributes.append(
                    PredicateQuery.Attribute(
                        attribute.name, type, optional: attribute.isOptional, defaultValue: attribute.defaultValue,
                        unique: entity.uniqueProperties.contains(attribute.name),
                        originalName: Self.renamed(attribute.renamingIdentifier, from: attribute.name),
                        transient: attribute.isTransient, externalStorage: attribute.allowsExternalStorage))
            }
            let relationships = entity.relationships.map(Self.relationship)
            for skipped in entity.skipped {
                warnings.append(
                    ModelWarning(source: source, message: "'\(entity.name).\(skipped.name)' left out: \(skipped.reason)"))
            }
            entities.append(
                PredicateQuery.Entity(
                    entity.name, attributes: attributes, relationships: relationships, parent: entity.parent,
                    originalName: Self.renamed(entity.renamingIdentifier, from: entity.name), abstract: entity.isAbstract))
        }
        return (Schema(entities: entities, composites: composites), warnings)
    }

    /// The renaming identifier when it differs from the name.
    private static func renamed(_ identifier: String?, from name: String) -> String? {
        guard let identifier, !identifier.isEmpty, identifier != name else { return nil }
        return identifier
    }

    private static func relationship(_ relationship: Relationship) -> PredicateQuery.Relationship {
        let rule: PredicateQuery.Relationship.DeleteRule =
            switch relationship.deleteRule {
            case 0: .noAction
            case 2: .cascade
            case 3: .deny
            default: .nullify
            }
        let originalName = renamed(relationship.renamingIdentifier, from: relationship.name)
        var result =
            relationship.isToMany
            ? PredicateQuery.Relationship(
                relationship.name, toMany: relationship.destination, optional: relationship.isOptional,
                inverse: relationship.inverse, deleteRule: rule, originalName: originalName)
            : PredicateQuery.Relationship(
                relationship.name, to: relationship.destination, optional: relationship.isOptional,
                inverse: relationship.inverse, deleteRule: rule, originalName: originalName)
        result.isOrdered = relationship.isToMany && relationship.isOrdered
        return result
    }

    /// pq's type for an attribute, or nil (with a warning) for one pq leaves out.
    private static func type(
        of attribute: Attribute, owner: String, context: String, source: String, composites: inout [CompositeType],
        warnings: inout [ModelWarning], depth: Int = 0
    ) -> AttributeType? {
        typealias Code = CoreDataAttributeType
        switch attribute.typeCode {
        case Code.integer16: return .integer(bits: 16)
        case Code.integer32: return .integer(bits: 32)
        case Code.integer64: return .integer(bits: 64)
        case Code.decimal: return .decimal
        case Code.double: return .double
        case Code.float: return .float
        case Code.string: return .string
        case Code.boolean: return .bool
        case Code.date: return .date
        case Code.binary: return .data
        case Code.uuid: return .uuid
        case Code.uri: return .url
        case Code.transformable: return .transformable(attribute.className ?? "NSObject")
        case Code.composite:
            guard depth < 16 else {
                warnings.append(ModelWarning(source: source, message: "\(context) left out: composites nested too deeply"))
                return nil
            }
            var fields: [PredicateQuery.Attribute] = []
            for element in attribute.elements {
                guard
                    let type = Self.type(
                        of: element, owner: owner, context: "element '\(element.name)' of \(context)", source: source,
                        composites: &composites, warnings: &warnings, depth: depth + 1)
                else { continue }
                fields.append(
                    PredicateQuery.Attribute(
                        element.name, type, optional: element.isOptional, defaultValue: element.defaultValue,
                        originalName: renamed(element.renamingIdentifier, from: element.name)))
            }
            var name = attribute.compositeName ?? capitalized(attribute.name)
            if let existing = composites.first(where: { $0.name == name }), existing.fields != fields {
                name = owner + capitalized(attribute.name)
            }
            if !composites.contains(where: { $0.name == name }) { composites.append(CompositeType(name, fields: fields)) }
            return .named(name)
        case Code.objectID:
            warnings.append(ModelWarning(source: source, message: "\(context) left out: object ID attributes are not stored"))
            return nil
        case Code.undefined:
            warnings.append(ModelWarning(source: source, message: "\(context) left out: its type is Undefined"))
            return nil
        default:
            warnings.append(
                ModelWarning(source: source, message: "\(context) left out: unknown attribute type \(attribute.typeCode)"))
            return nil
        }
    }

    private static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }
}
