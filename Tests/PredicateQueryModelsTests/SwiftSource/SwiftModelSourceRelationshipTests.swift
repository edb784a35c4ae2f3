// Relationships read from source: to-one and to-many, delete rules, inverses
// declared on either side or inferred, transformable attributes, inheritance.

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct SwiftModelSourceRelationshipTests {
    @Test func inverseDeclaredOnOneSideIsSetOnBoth() throws {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model final class Folder {
                @Relationship(deleteRule: .cascade, inverse: \Snippet.folder)
                var snippets: [Snippet]
                var name: String
            }
            @Model final class Snippet {
                var folder: Folder?
                @Relationship(.nullify, inverse: \Tag.snippets) var tags: [Tag]? = nil
            }
            @Model final class Tag {
                var snippets: [Snippet] = []
                var owner: Folder
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(
            schema.entity(named: "Folder")?.relationships == [
                Relationship("snippets", toMany: "Snippet", inverse: "folder", deleteRule: .cascade)
            ])
        #expect(
            schema.entity(named: "Snippet")?.relationships == [
                Relationship("folder", to: "Folder", inverse: "snippets"),
                Relationship("tags", toMany: "Tag", optional: true, inverse: "snippets"),
            ])
        #expect(
            schema.entity(named: "Tag")?.relationships == [
                Relationship("snippets", toMany: "Snippet", inverse: "tags"),
                Relationship("owner", to: "Folder", optional: false),
            ])
        #expect(schema.validate().isEmpty, "\(schema.validate().map(\.message))")
    }

    @Test func inversesAreInferredOnlyWhenUnambiguous() throws {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model class User {
                var name: String
                var children: [User] = []
                var pets: [Pet] = []
                var sent: [Message] = []
                var received: [Message] = []
            }
            @Model class Pet {
                var owner: User?
            }
            @Model class Message {
                var sender: User?
                var recipient: User?
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        let user = try #require(schema.entity(named: "User"))
        #expect(user.relationships.map(\.inverse) == [nil, "owner", nil, nil])
        #expect(schema.entity(named: "Pet")?.relationships.first?.inverse == "pets")
        #expect(schema.entity(named: "Message")?.relationships.map(\.inverse) == [nil, nil])
        #expect(schema.validate().isEmpty)
    }

    @Test func inversesThatDoNotFitAreWarnedAbout() {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model class A {
                @Relationship(inverse: \B.missing) var b: B?
                @Relationship(inverse: \C.a) var c: B?
            }
            @Model class B { var a: A? }
            @Model class C { var a: A? }
            """#)
        #expect(
            warnings.map(\.message) == [
                "'A.b' names 'missing' as its inverse, but 'B' has no relationship of that name; ignored",
                #"'A.c' names \C.a as its inverse, but its destination is 'B'; ignored"#,
            ])
        #expect(schema.validate().isEmpty, "\(schema.validate().map(\.message))")
    }

    @Test func conflictingInversesAreWarnedAbout() {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model class Author {
                @Relationship(inverse: \Book.author) var books: [Book] = []
                @Relationship(inverse: \Book.author) var drafts: [Book] = []
            }
            @Model class Book {
                var author: Author?
            }
            """#)
        #expect(
            warnings.map(\.description) == [
                "Models.swift:3: warning: 'Author.drafts' names 'Book.author' as its inverse, but so does 'Author.books', and a relationship has one inverse; the inverse of 'drafts' is ignored"
            ])
        #expect(schema.entity(named: "Author")?.relationships.map(\.inverse) == ["author", nil])
        #expect(schema.entity(named: "Book")?.relationships.map(\.inverse) == ["books"])
        #expect(schema.validate().isEmpty, "\(schema.validate().map(\.message))")
    }

    @Test func inversesDeclaredDifferentlyOnTheTwoSidesAreWarnedAbout() {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model class Author {
                @Relationship(inverse: \Book.author) var books: [Book] = []
                var drafts: [Book] = []
            }
            @Model class Book {
                @Relationship(inverse: \Author.drafts) var author: Author?
            }
            """#)
        #expect(
            warnings.map(\.description).contains(
                "Models.swift:2: warning: 'Author.books' and 'Book.author' name different inverses; the inverse of 'books' is ignored"),
            "\(warnings.map(\.description))")
        #expect(schema.entity(named: "Book")?.relationships.map(\.inverse) == ["drafts"])
        #expect(schema.validate().isEmpty, "\(schema.validate().map(\.message))")
    }

    @Test func transformableAttributes() throws {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            import UIKit
            @Model class Paint {
                @Attribute(.transformable(by: UIColorValueTransformer.self)) var color: UIColor
                @Attribute(.transformable(by: "ColorTransformer"))
                var accent: UIColor?
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(
            schema.entity(named: "Paint")?.attributes == [
                Attribute("color", .transformable("UIColor")), Attribute("accent", .transformable("UIColor"), optional: true),
            ])
    }

    @Test func inheritanceFromAModelBecomesTheParent() throws {
        let (schema, warnings) = SwiftModelSourceTestSupport.load(
            #"""
            @Model class Animal {
                var name: String
                var owner: Person?
                init(name: String) { self.name = name }
            }
            @Model final class Dog: Animal {
                var breed: String
                var title: String { "\(name) the \(breed)" }
            }
            @Model class Person: NSObject, Identifiable {
                var pets: [Animal] = []
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        let dog = try #require(schema.entity(named: "Dog"))
        #expect(dog.parent == "Animal")
        #expect(dog.computedProperties == [ComputedProperty("title", typeName: "String", dependencies: ["name", "breed"])])
        #expect(schema.entity(named: "Person")?.parent == nil)
        #expect(schema.entity(named: "Person")?.relationships.first?.inverse == "owner")
        #expect(schema.validate().isEmpty)
    }
}
