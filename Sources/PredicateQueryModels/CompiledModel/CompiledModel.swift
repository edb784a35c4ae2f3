// Compiled Core Data models: the keyed archive of an `NSManagedObjectModel`, as
// Xcode compiles an `.xcdatamodel` into a `.mom` file (a `.momd` folder holds one
// per version) and as a store keeps it in its model cache.
//
// The archive's entities (`NSEntities`), each an `NSEntityDescription` with its
// name, super- and sub-entities, renaming identifier and properties, become a
// `CoreDataModel`; `+Properties` reads attributes and relationships. The
// archive's dictionaries have no meaningful order, so entities and properties
// come sorted by name, as Xcode writes them in a model's XML.

import Foundation
import PredicateQuery

/// Reads compiled Core Data models (`.mom` archives).
public enum CompiledModel {
    /// The schema of a compiled model's bytes (a `.mom` file); `source` names it in messages.
    public static func schema(fromArchive data: Data, source: String) throws(ModelSourceError) -> (Schema, [ModelWarning]) {
        try model(fromArchive: data, source: source).schema(source: source)
    }

    /// The Core Data model in a compiled model's bytes.
    static func model(fromArchive data: Data, source: String) throws(ModelSourceError) -> CoreDataModel {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(BinaryPropertyList(data))
        } catch {
            throw ModelSourceError("\(source) is not a compiled Core Data model: \(error.description)")
        }
        return try ArchiveDecoder(archive: archive, source: source).model()
    }
}

/// Walks an `NSManagedObjectModel` archive.
struct ArchiveDecoder {
    let archive: KeyedArchive
    let source: String

    func fail(_ message: String) -> ModelSourceError {
        ModelSourceError("\(source) is not a readable compiled Core Data model: \(message)")
    }

    func model() throws(ModelSourceError) -> CoreDataModel {
        let root = archive.root
        guard archive.className(root) == "NSManagedObjectModel" else {
            throw fail(
                "its root object is \(archive.className(root).map { "an \($0)" } ?? "not an object"), not an NSManagedObjectModel"
            )
        }
        guard let entitiesEntry = archive.reference("NSEntities", in: root), let pairs = archive.dictionary(entitiesEntry) else {
            throw fail("it has no entities dictionary")
        }
        var entities: [CoreDataModel.Entity] = []
        var seen: Set<String> = []
        for (key, value) in pairs {
            let entity = try self.entity(value, key: archive.string(key))
            guard seen.insert(entity.name).inserted else { throw fail("it has two entities named '\(entity.name)'") }
            entities.append(entity)
        }
        return CoreDataModel(entities: Self.withoutInheritedCopies(entities.sorted { $0.name < $1.name }))
    }

    /// The entities with each sub-entity's copies of its ancestors' properties removed: a
    /// store's model cache lists them on the sub-entity too (Core Data forbids redeclaring one).
    static func withoutInheritedCopies(_ entities: [CoreDataModel.Entity]) -> [CoreDataModel.Entity] {
        var byName: [String: CoreDataModel.Entity] = [:]
        for entity in entities { byName[entity.name] = entity }
        return entities.map { entity in
            var inherited: Set<String> = []
            var seen: Set<String> = [entity.name]
            var next = entity.parent
            while let name = next, seen.insert(name).inserted, let parent = byName[name] {
                inherited.formUnion(parent.attributes.map(\.name) + parent.relationships.map(\.name) + parent.skipped.map(\.name))
                next = parent.parent
            }
            guard !inherited.isEmpty else { return entity }
            var own = entity
            own.attributes.removeAll { inherited.contains($0.name) }
            own.relationships.removeAll { inherited.contains($0.name) }
            own.skipped.removeAll { inherited.contains($0.name) }
            return own
        }
    }

    func entity(_ entry: Int, key: String?) throws(ModelSourceError) -> CoreDataModel.Entity {
        guard archive.className(entry) == "NSEntityDescription" else {
            throw fail("the entity '\(key ?? "?")' is \(archive.className(entry).map { "an \($0)" } ?? "not an object")")
        }
        guard let name = archive.string("NSEntityName", in: entry) ?? key, !name.isEmpty else {
            throw fail("an entity has no name")
        }
        var entity = CoreDataModel.Entity(name: name)
        if let parent = archive.reference("NSSuperentity", in: entry) {
            guard let parentName = archive.string("NSEntityName", in: parent) else {
                throw fail("the parent of '\(name)' has no name")
            }
            entity.parent = parentName
        }
        entity.isAbstract = archive.bool("NSIsAbstract", in: entry) ?? false
        entity.renamingIdentifier = archive.string("NSRenamingIdentifier", in: entry)
        if let propertiesEntry = archive.reference("NSProperties", in: entry) {
            guard let pairs = archive.dictionary(propertiesEntry) else {
                throw fail("the properties of '\(name)' are not a dictionary")
            }
            for (key, value) in pairs {
                try addProperty(value, key: archive.string(key), to: &entity, entityEntry: entry)
            }
        }
        entity.attributes.sort { $0.name < $1.name }
        entity.relationships.sort { $0.name < $1.name }
        entity.skipped.sort { $0.name < $1.name }
        entity.uniqueProperties = uniqueProperties(of: entry)
        return entity
    }

    /// The properties of single-property uniqueness constraints (`NSUniqueTuples`).
    func uniqueProperties(of entry: Int) -> Set<String> {
        guard let tuplesEntry = archive.reference("NSUniqueTuples", in: entry), let tuples = archive.array(tuplesEntry) else {
            return []
        }
        var result: Set<String> = []
        for tuple in tuples {
            guard let members = archive.array(tuple), members.count == 1, let name = archive.string(members[0]) else { continue }
            result.insert(name)
        }
        return result
    }
}
