// Schema metadata: enum raw values, lookups through inheritance, the JSON form
// and validation.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct SchemaTests {
    @Test func implicitIntRawValuesCountUpFromThePreviousCase() {
        let genre = EnumType("Genre", rawType: .int, cases: [("action", .int(1)), ("kids", nil), ("horror", nil)])
        #expect(genre.cases.map(\.rawValue) == [.int(1), .int(2), .int(3)])
        let gaps = EnumType("Level", rawType: .int, cases: [("low", nil), ("mid", .int(10)), ("high", nil)])
        #expect(gaps.cases.map(\.rawValue) == [.int(0), .int(10), .int(11)])
    }

    @Test func implicitStringRawValuesAreCaseNames() {
        let language = EnumType("Language", rawType: .string, cases: [("swift", nil), ("objc", .string("objective-c"))])
        #expect(language.cases.map(\.rawValue) == [.string("swift"), .string("objective-c")])
        #expect(language.enumCase(rawValue: .string("objective-c"))?.name == "objc")
    }

    @Test(arguments: ExampleSchemas.byName.map(\.name) + ["Combined"])
    func exampleSchemasAreValidAndSurviveJSON(_ name: String) throws {
        let schema =
            name == "Combined" ? ExampleSchemas.combined : try #require(ExampleSchemas.byName.first { $0.name == name }?.schema)
        #expect(schema.validate().isEmpty, "\(schema.validate().map(\.message))")
        let data = try schema.jsonData()
        let decoded = try Schema.fromJSON(data)
        #expect(decoded == schema)
        #expect(try decoded.jsonData() == data)
    }

    @Test func jsonFormIsCompactAndReadable() throws {
        let json = """
            {"entities": [{"name": "Movie",
                           "attributes": [{"name": "name", "type": "String"},
                                          {"name": "genre", "type": "Genre", "optional": true},
                                          {"name": "photo", "type": "Data", "externalStorage": true},
                                          {"name": "color", "type": "UIColor", "transformable": true}],
                           "relationships": [{"name": "studio", "destination": "Studio", "inverse": "movies"}],
                           "computed": [{"name": "title", "type": "String", "dependencies": ["name"]}]},
                          {"name": "Studio",
                           "relationships": [{"name": "movies", "destination": "Movie", "toMany": true, "inverse": "studio", "deleteRule": "cascade"}]}],
             "enums": [{"name": "Genre", "rawType": "Int", "cases": [{"name": "action", "rawValue": 1}, {"name": "kids"}]}]}
            """
        let schema = try Schema.fromJSON(Data(json.utf8))
        #expect(schema.validate().isEmpty)
        let movie = try #require(schema.entity(named: "Movie"))
        #expect(movie.attributes.map(\.type) == [.string, .named("Genre"), .data, .transformable("UIColor")])
        #expect(movie.attributes[1].isOptional)
        #expect(movie.attributes[2].isExternalStorage)
        #expect(movie.relationships[0].isOptional, "to-one relationships default to optional")
        #expect(schema.entity(named: "Studio")?.relationships[0].deleteRule == .cascade)
        #expect(schema.enumType(named: "Genre")?.cases.map(\.rawValue) == [.int(1), .int(2)])
        #expect(movie.computedProperties.first?.dependencies == ["name"])
    }

    @Test func malformedJSONThrows() {
        #expect(throws: (any Error).self) { try Schema.fromJSON(Data(#"{"entities": [{"attributes": []}]}"#.utf8)) }
        #expect(throws: (any Error).self) { try Schema.fromJSON(Data("not json".utf8)) }
    }

    @Test func validationFindsEveryInconsistency() {
        let schema = Schema(
            entities: [
                Entity(
                    "Budget",
                    attributes: [Attribute("name", .string), Attribute("name", .string), Attribute("kind", .named("Kind"))],
                    relationships: [
                        Relationship("transactions", toMany: "Transaction", inverse: "owner"),
                        Relationship("ledger", to: "Ledger"),
                    ]),
                Entity("Transaction", relationships: [Relationship("budget", to: "Budget", inverse: "transactions")]),
                Entity("Budget"),
                Entity("Child", parent: "Missing"),
                Entity("bad name"),
            ],
            enums: [EnumType("Genre", rawType: .int, cases: [("a", .int(1)), ("b", .int(1)), ("a", .string("x"))])])
        let codes = schema.validate().map(\.code)
        #expect(codes.filter { $0 == .duplicateName }.count == 1)
        #expect(codes.contains(.duplicateProperty))
        #expect(codes.contains(.unknownType))
        #expect(codes.contains(.inverseMismatch))
        #expect(codes.contains(.unknownDestination))
        #expect(codes.contains(.invalidParent))
        #expect(codes.contains(.invalidName))
        #expect(codes.filter { $0 == .invalidEnum }.count == 3)
    }

    @Test func subEntitiesInheritTheirParentsProperties() throws {
        let schema = Schema(entities: [
            Entity("Item", attributes: [Attribute("name", .string)]),
            Entity("Book", attributes: [Attribute("isbn", .string)], parent: "Item"),
        ])
        #expect(schema.validate().isEmpty)
        let book = try #require(schema.entity(named: "Book"))
        #expect(schema.allProperties(of: book).map(\.name) == ["name", "isbn"])
        let parsed = try #require(parseOrRecord("Book where name == 'Dune' && isbn != ''"))
        #expect(TypeChecker.check(parsed, schema: schema).query != nil)
    }
}
