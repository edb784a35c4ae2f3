// Xcode model XML written in the test, for what the corpus has no example of:
// composite attributes, ordered relationships, abstract entities, defaults with
// entities in them, left-out properties.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryModels

/// Xcode model XML written in the test: what the corpus has no example of.
struct XcodeModelContentsTests {
    @Test func compositesOrderedRelationshipsAndDefaults() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Cocktail" representedClassName="Cocktail" isAbstract="NO" syncable="YES">
                    <attribute name="author" optional="YES" attributeType="Composite" composite="Author"/>
                    <attribute name="rating" attributeType="Double" defaultValueString="4" usesScalarValueType="YES"/>
                    <attribute name="ref" optional="YES" attributeType="ObjectID"/>
                    <attribute name="title" attributeType="String" defaultValueString="Tom &amp; &quot;Jerry&quot;" elementID="name"/>
                    <relationship name="steps" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Step" inverseName="cocktail" inverseEntity="Step"/>
                    <fetchedProperty name="recent" optional="YES"/>
                </entity>
                <entity name="Step" representedClassName="Step" isAbstract="YES" syncable="YES">
                    <relationship name="cocktail" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Cocktail" inverseName="steps" inverseEntity="Cocktail"/>
                </entity>
                <composite name="Author">
                    <attribute name="person" optional="YES" attributeType="String"/>
                    <attribute name="year" attributeType="Integer 16" defaultValueString="0"/>
                </composite>
            </model>
            """
        let model = try XcodeModel.model(fromContents: Data(xml.utf8), source: "contents")
        let (schema, warnings) = model.schema(source: "Test.xcdatamodel")
        #expect(
            warnings.map(\.message) == [
                "attribute 'ref' of 'Cocktail' left out: object ID attributes are not stored",
                "'Cocktail.recent' left out: fetched properties are not stored",
            ])
        let cocktail = try #require(schema.entity(named: "Cocktail"))
        #expect(cocktail.attributes.map(\.name) == ["author", "rating", "title"])
        #expect(cocktail.attributes.map(\.type) == [.named("Author"), .double, .string])
        #expect(cocktail.attributes.map(\.defaultValue) == [nil, "4.0", "\"Tom & \\\"Jerry\\\"\""])
        #expect(cocktail.attributes[2].originalName == "name")
        #expect(schema.composite(named: "Author")?.fields.map(\.name) == ["person", "year"])
        #expect(schema.composite(named: "Author")?.fields.map(\.type) == [.string, .integer(bits: 16)])
        let steps = try #require(cocktail.relationships.first)
        #expect(steps.isToMany && steps.isOrdered && !steps.isOptional && steps.deleteRule == .cascade)
        #expect(schema.entity(named: "Step")?.isAbstract == true)
        #expect(schema.validate().isEmpty)
    }
}
