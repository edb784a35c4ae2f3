// The properties of an archived entity: attributes (plain, derived and
// composite), relationships, and the flags Core Data packs into `_P`.
//
// `_P`, when present and non-zero, holds the property's flags (0x2 optional,
// 0x8 transient, 0x400 ordered); older archives spell them as `NSIsOptional`,
// `NSIsTransient` and `NSIsOrdered`, which Core Data reads only when `_P` is 0.

import Foundation

extension ArchiveDecoder {
    /// The flags of a property entry: optional, transient, ordered.
    func flags(_ entry: Int) -> (optional: Bool, transient: Bool, ordered: Bool) {
        let packed = archive.int("_P", in: entry) ?? 0
        if packed != 0 { return (packed & 0x2 != 0, packed & 0x8 != 0, packed & 0x400 != 0) }
        return (
            archive.bool("NSIsOptional", in: entry) ?? false, archive.bool("NSIsTransient", in: entry) ?? false,
            archive.bool("NSIsOrdered", in: entry) ?? false
        )
    }

    func addProperty(
        _ entry: Int, key: String?, to entity: inout CoreDataModel.Entity, entityEntry: Int
    ) throws(ModelSourceError) {
        let className = archive.className(entry)
        // A sub-entity may list its parent's properties too (as proxies or copies): keep its own.
        if className == "_NSPropertyDescriptionProxy" { return }
        if let owner = archive.reference("NSEntity", in: entry), owner != entityEntry { return }
        guard let name = archive.string("NSPropertyName", in: entry) ?? key, !name.isEmpty else {
            throw fail("a property of '\(entity.name)' has no name")
        }
        switch className {
        case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
            entity.attributes.append(try attribute(entry, name: name, owner: entity.name, depth: 0))
        case "NSRelationshipDescription":
            entity.relationships.append(try relationship(entry, name: name, owner: entity.name))
        case "NSFetchedPropertyDescription":
            entity.skipped.append((name, "fetched properties are not stored"))
        default:
            entity.skipped.append((name, "a property of kind \(className ?? "unknown") is not supported"))
        }
    }

    func attribute(_ entry: Int, name: String, owner: String, depth: Int) throws(ModelSourceError) -> CoreDataModel.Attribute {
        guard depth < 16 else { throw fail("the composite attribute '\(owner).\(name)' nests too deeply (or refers to itself)") }
        guard let code = archive.int("NSAttributeType", in: entry), let typeCode = Int(exactly: code) else {
            throw fail("the attribute '\(owner).\(name)' has no type")
        }
        let flags = flags(entry)
        var attribute = CoreDataModel.Attribute(
            name: name, typeCode: typeCode, isOptional: flags.optional, isTransient: flags.transient,
            renamingIdentifier: archive.string("NSRenamingIdentifier", in: entry))
        attribute.defaultValue = archive.reference("NSDefaultValue", in: entry).flatMap(defaultValue)?.spelled(for: typeCode)
        if typeCode == CoreDataAttributeType.transformable {
            attribute.className =
                archive.string("NSAttributeValueClassName", in: entry) ?? archive.string("NSValueTransformerName", in: entry)
        }
        if typeCode == CoreDataAttributeType.composite, let elementsEntry = archive.reference("NSCompositeElements", in: entry) {
            guard let elements = archive.array(elementsEntry) else {
                throw fail("the elements of the composite attribute '\(owner).\(name)' are not an array")
            }
            for element in elements {
                guard let elementName = archive.string("NSPropertyName", in: element), !elementName.isEmpty else {
                    throw fail("an element of the composite attribute '\(owner).\(name)' has no name")
                }
                attribute.elements.append(
                    try self.attribute(element, name: elementName, owner: "\(owner).\(name)", depth: depth + 1))
            }
        }
        return attribute
    }

    func relationship(_ entry: Int, name: String, owner: String) throws(ModelSourceError) -> CoreDataModel.Relationship {
        let destinationEntry = archive.reference("NSDestinationEntity", in: entry)
        guard
            let destination = archive.string("_NSDestinationEntityName", in: entry)
                ?? destinationEntry.flatMap({ archive.string("NSEntityName", in: $0) })
        else { throw fail("the relationship '\(owner).\(name)' has no destination") }
        let inverseEntry = archive.reference("NSInverseRelationship", in: entry)
        let inverse =
            archive.string("_NSInverseRelationshipName", in: entry)
            ?? inverseEntry.flatMap { archive.string("NSPropertyName", in: $0) }
        let flags = flags(entry)
        return CoreDataModel.Relationship(
            name: name, destination: destination, inverse: inverse, isToMany: (archive.int("NSMaxCount", in: entry) ?? 0) != 1,
            isOptional: flags.optional, isOrdered: flags.ordered, deleteRule: Int(archive.int("NSDeleteRule", in: entry) ?? 1),
            renamingIdentifier: archive.string("NSRenamingIdentifier", in: entry))
    }

    /// An archived default value: a number, string, date or UUID/URL instance.
    func defaultValue(_ entry: Int) -> CoreDataDefaultValue? {
        switch archive.object(entry) {
        case .bool(let value)?: return .bool(value)
        case .int(let value)?: return .int(value)
        case .real(let value)?: return .real(value)
        case .string(let value)?: return .string(value)
        case .date(let value)?: return .date(value)
        case .dictionary?:
            if let text = archive.string(entry) { return .string(text) }
            if let fields = archive.fields(entry) {
                if let time = fields["NS.time"], case .real(let seconds)? = archive.plist.object(time) { return .date(seconds) }
                if let bytes = fields["NS.uuidbytes"], case .data(let data)? = archive.plist.object(bytes), data.count == 16 {
                    let uuid = data.withUnsafeBytes { raw in UUID(uuid: raw.loadUnaligned(as: uuid_t.self)) }
                    return .string(uuid.uuidString)
                }
                if let relative = archive.string("NS.relative", in: entry) { return .string(relative) }
            }
            return nil
        default: return nil
        }
    }
}
