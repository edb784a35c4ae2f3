// The XML of an `.xcdatamodel`'s `contents` file, as Xcode writes it: `<model>`
// holds `<entity>` elements (name, `parentEntity`, `isAbstract`, `elementID` as
// the renaming identifier) with `<attribute>`, `<relationship>` and
// `<fetchedProperty>` children and uniqueness constraints; `<composite>`
// elements declare the Codable structs composite attributes use (an attribute
// names its struct with `composite="…"`). Diagram layout,
// configurations and fetch requests are ignored.

import Foundation

extension XcodeModel {
    /// The Core Data model in a `contents` file's bytes; `source` names it in messages.
    static func model(fromContents data: Data, source: String) throws(ModelSourceError) -> CoreDataModel {
        let root: XMLTree
        do {
            root = try XMLTree.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw ModelSourceError("\(source):\(error.line): not a readable Xcode model: \(error.message)")
        }
        guard root.name == "model" else {
            throw ModelSourceError("\(source): not an Xcode model: its root element is <\(root.name)>, not <model>")
        }
        var composites: [String: XMLTree] = [:]
        // Xcode writes `<composite name=…>`; `<compositeAttribute>` is read the same way.
        for composite in root.children(named: "composite") + root.children(named: "compositeAttribute") {
            if let name = composite.attributes["name"] { composites[name] = composite }
        }
        var entities: [CoreDataModel.Entity] = []
        var seen: Set<String> = []
        for element in root.children(named: "entity") {
            guard let name = element.attributes["name"], !name.isEmpty else {
                throw ModelSourceError("\(source): an <entity> has no name")
            }
            guard seen.insert(name).inserted else { throw ModelSourceError("\(source): two entities are named '\(name)'") }
            entities.append(try entity(element, name: name, composites: composites, source: source))
        }
        return CoreDataModel(entities: entities)
    }

    private static func yes(_ value: String?) -> Bool { value == "YES" }

    private static func entity(
        _ element: XMLTree, name: String, composites: [String: XMLTree], source: String
    ) throws(ModelSourceError) -> CoreDataModel.Entity {
        var entity = CoreDataModel.Entity(name: name)
        entity.parent = element.attributes["parentEntity"]
        entity.isAbstract = yes(element.attributes["isAbstract"])
        entity.renamingIdentifier = element.attributes["elementID"]
        for child in element.children {
            switch child.name {
            case "attribute":
                entity.attributes.append(try attribute(child, owner: name, composites: composites, source: source, depth: 0))
            case "relationship":
                entity.relationships.append(try relationship(child, owner: name, source: source))
            case "fetchedProperty":
                entity.skipped.append((child.attributes["name"] ?? "?", "fetched properties are not stored"))
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    let members = constraint.children(named: "constraint").compactMap { $0.attributes["value"] }
                    if members.count == 1 { entity.uniqueProperties.insert(members[0]) }
                }
            default:
                break
            }
        }
        return entity
    }

    private static func attribute(
        _ element: XMLTree, owner: String, composites: [String: XMLTree], source: String, depth: Int
    ) throws(ModelSourceError) -> CoreDataModel.Attribute {
        guard let name = element.attributes["name"], !name.isEmpty else {
            throw ModelSourceError("\(source): an attribute of '\(owner)' has no name")
        }
        let typeName = element.attributes["attributeType"] ?? "Undefined"
        guard let typeCode = CoreDataAttributeType.byXMLName[typeName] else {
            throw ModelSourceError("\(source): the attribute '\(owner).\(name)' has the unknown type '\(typeName)'")
        }
        var attribute = CoreDataModel.Attribute(
            name: name, typeCode: typeCode, isOptional: yes(element.attributes["optional"]),
            isTransient: yes(element.attributes["transient"]), renamingIdentifier: element.attributes["elementID"])
        let rawDefault: CoreDataDefaultValue? =
            element.attributes["defaultDateTimeInterval"].map(CoreDataDefaultValue.string)
            ?? element.attributes["defaultValueString"].map(CoreDataDefaultValue.string)
        attribute.defaultValue = rawDefault?.spelled(for: typeCode)
        if typeCode == CoreDataAttributeType.transformable {
            attribute.className = element.attributes["customClassName"] ?? element.attributes["valueTransformerName"]
        }
        if typeCode == CoreDataAttributeType.composite {
            guard depth < 16 else {
                throw ModelSourceError(
                    "\(source): the composite attribute '\(owner).\(name)' nests too deeply (or refers to itself)")
            }
            let compositeName = element.attributes["composite"]
            attribute.compositeName = compositeName
            let fields =
                compositeName.flatMap { composites[$0] }?.children(named: "attribute") ?? element.children(named: "attribute")
            for field in fields {
                attribute.elements.append(
                    try self.attribute(field, owner: "\(owner).\(name)", composites: composites, source: source, depth: depth + 1)
                )
            }
        }
        return attribute
    }

    private static func relationship(
        _ element: XMLTree, owner: String, source: String
    ) throws(ModelSourceError) -> CoreDataModel.Relationship {
        guard let name = element.attributes["name"], !name.isEmpty else {
            throw ModelSourceError("\(source): a relationship of '\(owner)' has no name")
        }
        guard let destination = element.attributes["destinationEntity"], !destination.isEmpty else {
            throw ModelSourceError("\(source): the relationship '\(owner).\(name)' has no destination entity")
        }
        let rule =
            switch element.attributes["deletionRule"] {
            case "No Action": 0
            case "Cascade": 2
            case "Deny": 3
            default: 1
            }
        return CoreDataModel.Relationship(
            name: name, destination: destination, inverse: element.attributes["inverseName"],
            isToMany: yes(element.attributes["toMany"]), isOptional: yes(element.attributes["optional"]),
            isOrdered: yes(element.attributes["ordered"]), deleteRule: rule, renamingIdentifier: element.attributes["elementID"])
    }
}
