// Archives built in the test (no corpus needed): what the corpus has no example
// of — composite attributes, ordered relationships, packed and spelled-out flags,
// known-keys dictionaries — and archives that are malformed on purpose: a
// composite that contains itself, missing names, wrong root classes.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct ArchivedModelTests {
    /// An archive of one entity `Cocktail` with the given property entries, built by `properties`.
    static func model(
        _ properties: (inout ArchiveBuilder, _ entity: Int) -> [(String, Int)], entityFields: [(String, PlistObject)] = []
    ) -> Data {
        var builder = ArchiveBuilder()
        let model = builder.entry(.null)
        let entity = builder.entry(.null)
        let name = builder.string("Cocktail")
        let propertyPairs = properties(&builder, entity).map { (builder.string($0.0), $0.1) }
        let propertyDictionary = builder.dictionary(propertyPairs)
        builder.fill(
            entity, "NSEntityDescription",
            [("NSEntityName", .uid(name)), ("NSProperties", .uid(propertyDictionary)), ("NSManagedObjectModel", .uid(model))]
                + entityFields)
        let entities = builder.dictionary([(name, entity)])
        builder.fill(model, "NSManagedObjectModel", [("NSEntities", .uid(entities))])
        return builder.data(root: model)
    }

    static func attribute(
        _ builder: inout ArchiveBuilder, _ name: String, type: Int64, entity: Int, packed: Int64 = 0x3,
        extra: [(String, PlistObject)] = []
    ) -> Int {
        let nameEntry = builder.string(name)
        return builder.instance(
            type == 2100 ? "NSCompositeAttributeDescription" : "NSAttributeDescription",
            [
                ("NSPropertyName", .uid(nameEntry)), ("NSAttributeType", .int(type)), ("NSEntity", .uid(entity)),
                ("_P", .int(packed)),
            ]
                + extra)
    }

    @Test func aCompositeAttributeBecomesACompositeType() throws {
        let data = Self.model { builder, entity in
            let person = Self.attribute(&builder, "person", type: 700, entity: entity)
            let year = Self.attribute(&builder, "year", type: 300, entity: entity, packed: 0x1)
            let elements = builder.array([person, year])
            let author = Self.attribute(
                &builder, "author", type: 2100, entity: entity, extra: [("NSCompositeElements", .uid(elements))])
            return [("author", author)]
        }
        let (schema, warnings) = try CompiledModel.schema(fromArchive: data, source: "test.mom")
        #expect(warnings.isEmpty)
        let author = try #require(schema.entity(named: "Cocktail")?.attributes.first)
        #expect(author.name == "author" && author.type == .named("Author") && author.isOptional)
        let composite = try #require(schema.composite(named: "Author"))
        #expect(composite.fields.map(\.name) == ["person", "year"])
        #expect(composite.fields.map(\.type) == [.string, .integer(bits: 64)])
        #expect(composite.fields.map(\.isOptional) == [true, false])
    }

    @Test func aCompositeThatContainsItselfIsAnError() {
        let data = Self.model { builder, entity in
            let author = builder.entry(.null)
            let elements = builder.array([author])
            let name = builder.string("author")
            builder.fill(
                author, "NSCompositeAttributeDescription",
                [
                    ("NSPropertyName", .uid(name)), ("NSAttributeType", .int(2100)), ("NSEntity", .uid(entity)),
                    ("NSCompositeElements", .uid(elements)),
                ])
            return [("author", author)]
        }
        #expect {
            try CompiledModel.schema(fromArchive: data, source: "cycle.mom")
        } throws: { error in
            (error as? ModelSourceError)?.message.contains("nests too deeply (or refers to itself)") == true
        }
    }

    @Test func packedFlagsGiveOrderedOptionalAndTransient() throws {
        let data = Self.model { builder, entity in
            let destination = builder.string("Cocktail")
            let name = builder.string("steps")
            let steps = builder.instance(
                "NSRelationshipDescription",
                [
                    ("NSPropertyName", .uid(name)), ("_NSDestinationEntityName", .uid(destination)), ("NSMaxCount", .int(0)),
                    ("NSDeleteRule", .int(2)), ("NSEntity", .uid(entity)), ("_P", .int(0x403)),
                ])
            let scratch = Self.attribute(&builder, "scratch", type: 700, entity: entity, packed: 0x9)
            let spelled = Self.attribute(
                &builder, "spelled", type: 800, entity: entity, packed: 0,
                extra: [("NSIsOptional", .bool(true)), ("NSIsTransient", .bool(true))])
            return [("steps", steps), ("scratch", scratch), ("spelled", spelled)]
        }
        let (schema, _) = try CompiledModel.schema(fromArchive: data, source: "flags.mom")
        let entity = try #require(schema.entity(named: "Cocktail"))
        let steps = try #require(entity.relationships.first)
        #expect(steps.isToMany && steps.isOrdered && steps.isOptional && steps.deleteRule == .cascade && steps.inverse == nil)
        #expect(entity.attributes.map(\.name) == ["scratch", "spelled"])
        #expect(entity.attributes.map(\.isOptional) == [false, true])
        #expect(entity.attributes.map(\.isTransient) == [true, true])
    }

    @Test func objectIDAndFetchedPropertiesAreLeftOutWithWarnings() throws {
        let data = Self.model { builder, entity in
            let objectID = Self.attribute(&builder, "ref", type: 2000, entity: entity)
            let fetchedName = builder.string("recent")
            let fetched = builder.instance(
                "NSFetchedPropertyDescription", [("NSPropertyName", .uid(fetchedName)), ("NSEntity", .uid(entity))])
            let kept = Self.attribute(&builder, "name", type: 700, entity: entity)
            return [("ref", objectID), ("recent", fetched), ("name", kept)]
        }
        let (schema, warnings) = try CompiledModel.schema(fromArchive: data, source: "skip.mom")
        #expect(schema.entity(named: "Cocktail")?.attributes.map(\.name) == ["name"])
        #expect(
            warnings.map(\.description).sorted() == [
                "skip.mom: warning: 'Cocktail.recent' left out: fetched properties are not stored",
                "skip.mom: warning: attribute 'ref' of 'Cocktail' left out: object ID attributes are not stored",
            ])
    }

    @Test func anArchiveOfSomethingElseIsAClearError() {
        var builder = ArchiveBuilder()
        let root = builder.instance("NSDate", [("NS.time", .real(0))])
        let data = builder.data(root: root)
        #expect {
            try CompiledModel.schema(fromArchive: data, source: "date.mom")
        } throws: { error in
            (error as? ModelSourceError)?.message
                == "date.mom is not a readable compiled Core Data model: its root object is an NSDate, not an NSManagedObjectModel"
        }
    }

    @Test func anAttributeWithoutATypeIsAnError() {
        let data = Self.model { builder, entity in
            let name = builder.string("broken")
            return [
                (
                    "broken",
                    builder.instance("NSAttributeDescription", [("NSPropertyName", .uid(name)), ("NSEntity", .uid(entity))])
                )
            ]
        }
        #expect {
            try CompiledModel.schema(fromArchive: data, source: "t.mom")
        } throws: { error in
            (error as? ModelSourceError)?.message.contains("the attribute 'Cocktail.broken' has no type") == true
        }
    }

    @Test func anEntityThatIsItsOwnParentLoadsAndIsReportedAsALoop() throws {
        var builder = ArchiveBuilder()
        let model = builder.entry(.null)
        let entity = builder.entry(.null)
        let name = builder.string("Cocktail")
        let properties = builder.dictionary([])
        builder.fill(
            entity, "NSEntityDescription",
            [("NSEntityName", .uid(name)), ("NSProperties", .uid(properties)), ("NSSuperentity", .uid(entity))])
        builder.fill(model, "NSManagedObjectModel", [("NSEntities", .uid(builder.dictionary([(name, entity)])))])
        let (schema, _) = try CompiledModel.schema(fromArchive: builder.data(root: model), source: "loop.mom")
        #expect(schema.entity(named: "Cocktail")?.parent == "Cocktail")
        #expect(schema.validate().map(\.message) == ["the inheritance of 'Cocktail' loops"])
    }
}
