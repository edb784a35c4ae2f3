// Reading stored properties: their spellings, types, defaults and attributes,
// and the properties skipped with a warning.

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct SwiftModelSourcePropertyTests {
    private func load(_ text: String) -> (schema: Schema, warnings: [SwiftModelSource.Warning]) {
        SwiftModelSourceTestSupport.load(text)
    }

    @Test func storedPropertiesInTheirSpellings() throws {
        let (schema, warnings) = load(
            #"""
            import SwiftData

            @Model
            public final class Item {
                let id: UUID
                var title: String = "Untitled"
                public private(set) var count: Int16
                var ratio: Double? = nil
                var maybe: Optional<Int>
                var legacy: Int!
                var when: Foundation.Date = .now
                var red, green: Double
                var a = 1, b = "x", c = 2.5, d = false, e = -3
                var stamp = Date()
                var tracked: Int = 0 {
                    didSet { print(oldValue) }
                }
                lazy var cache: Data = Data()
                static var shared: Int = 0
                class var kind: String { "item" }
                var blob: Data; var link: URL?
                var amount: Decimal

                init(id: UUID) {
                    self.id = id
                    var x: Int = 1
                    let y: String = "local"
                    x += y.count
                }

                func helper() -> Int {
                    var notAProperty: Int = 2
                    return notAProperty
                }
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        let item = try #require(schema.entity(named: "Item"))
        let attributes = Dictionary(uniqueKeysWithValues: item.attributes.map { ($0.name, $0) })
        #expect(
            item.attributes.map(\.name) == [
                "id", "title", "count", "ratio", "maybe", "legacy", "when", "red", "green", "a", "b", "c", "d", "e", "stamp",
                "tracked", "cache", "blob", "link", "amount",
            ])
        #expect(attributes["id"]?.type == .uuid)
        #expect(attributes["title"]?.defaultValue == #""Untitled""#)
        #expect(attributes["count"]?.type == .integer(bits: 16))
        #expect(attributes["ratio"]?.isOptional == true && attributes["ratio"]?.defaultValue == "nil")
        #expect(attributes["maybe"]?.isOptional == true && attributes["maybe"]?.type == .integer(bits: 64))
        #expect(attributes["legacy"]?.isOptional == true)
        #expect(attributes["when"]?.type == .date && attributes["when"]?.defaultValue == ".now")
        #expect(attributes["red"]?.type == .double && attributes["green"]?.type == .double)
        #expect(
            ["a", "b", "c", "d", "e"].map { attributes[$0]?.type } == [
                .integer(bits: 64), .string, .double, .bool, .integer(bits: 64),
            ])
        #expect(attributes["e"]?.defaultValue == "-3")
        #expect(attributes["stamp"]?.type == .date && attributes["stamp"]?.defaultValue == "Date()")
        #expect(attributes["tracked"]?.defaultValue == "0", "observers keep a property stored")
        #expect(attributes["link"]?.type == .url && attributes["amount"]?.type == .decimal)
        #expect(item.computedProperties.isEmpty, "class properties are not the model's")
    }

    @Test func attributesOnTheLineBeforeAndTheirOptions() throws {
        let (schema, warnings) = load(
            #"""
            @Model final class Photo {
                @Attribute(.unique)
                var id: String
                @Attribute(.externalStorage) var data: Data?
                @Attribute(originalName: "caption_text")
                var caption: String
                @Attribute(.unique, .spotlight, originalName: "n", hashModifier: "v2")
                var name: String
                @Transient
                var isSelected: Bool = false
                @Attribute(.transient) var scratch: String = ""
                @Attribute(.preserveValueOnDeletion, .encrypt) var secret: String
                @Attribute(.bogus) var odd: Int
                @Published var published: Int = 0
                @objc @MainActor var plain: Int = 0
            }
            """#)
        let photo = try #require(schema.entity(named: "Photo"))
        let attributes = Dictionary(uniqueKeysWithValues: photo.attributes.map { ($0.name, $0) })
        #expect(attributes["id"]?.isUnique == true)
        #expect(attributes["data"]?.isExternalStorage == true && attributes["data"]?.isOptional == true)
        #expect(attributes["caption"]?.originalName == "caption_text")
        #expect(attributes["name"]?.isUnique == true && attributes["name"]?.originalName == "n")
        #expect(attributes["isSelected"]?.isTransient == true && attributes["scratch"]?.isTransient == true)
        #expect(attributes["secret"] == Attribute("secret", .string))
        #expect(attributes["odd"] != nil && attributes["published"] != nil && attributes["plain"] != nil)
        #expect(
            warnings.map(\.description) == [
                "Models.swift:13: warning: unknown @Attribute option '.bogus' on 'odd'; ignored",
                "Models.swift:14: warning: '@Published' on 'published' is not a SwiftData attribute; ignored",
            ])
    }

    @Test func unknownTypesAreSkippedWithTheirLine() {
        let (schema, warnings) = load(
            #"""
            import UIKit
            import SwiftData

            @Model
            final class Paint {
                var name: String
                var color: UIColor
                var tags: [String] = []
                var scores: [String: Int] = [:]
                var handler: () -> Void = {}
                var mystery = makeMystery()
            }
            """#)
        // An array of values is one column SwiftData keeps as a property list: nil tests only.
        #expect(schema.entity(named: "Paint")?.attributes.map(\.name) == ["name", "tags"])
        #expect(schema.entity(named: "Paint")?.attributes.last?.type == .transformable("[String]"))
        #expect(
            warnings.map(\.description) == [
                "Models.swift:7: warning: 'color' has type 'UIColor', which is not declared in the files pq read (a framework's type, or a file not given); skipped",
                "Models.swift:9: warning: 'scores' has type '[String: Int]', a dictionary, which pq cannot query; skipped",
                "Models.swift:10: warning: 'handler' has type '() -> Void', which SwiftData cannot store; skipped",
                "Models.swift:11: warning: 'mystery' has no type annotation, and pq cannot tell its type from 'makeMystery()'; skipped",
            ])
    }
}
