// Reading type declarations: enums with raw values, Codable structs, nested
// types, extensions with computed properties, #if, and the code beside the models
// that is ignored.

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct SwiftModelSourceTypeTests {
    private func load(_ text: String) -> (schema: Schema, warnings: [SwiftModelSource.Warning]) {
        SwiftModelSourceTestSupport.load(text)
    }

    @Test func enumsWithRawValuesExplicitAndImplicit() throws {
        let (schema, warnings) = load(
            #"""
            enum Genre: Int, Codable { case action = 1, kids, horror }
            enum Language: String, Codable, CaseIterable {
                case swift
                case objc = "objective-c"
                case rust, go
                var title: String { rawValue.capitalized }
                static let fallback = Language.swift
                func describe() -> String { "\(self)" }
            }
            enum Level: Int8, Codable {
                case low = -1, mid = 0x10, high
            }
            @Model class Movie {
                var genre: Genre
                var language: Language? = .swift
                var level: Level = Level.high
                var inferred = Genre.kids
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(schema.enums.map(\.name) == ["Genre", "Language", "Level"])
        #expect(schema.enumType(named: "Genre") == EnumType.int("Genre", ["action", "kids", "horror"], startingAt: 1))
        #expect(
            schema.enumType(named: "Language")?.cases.map(\.rawValue) == [
                .string("swift"), .string("objective-c"), .string("rust"), .string("go"),
            ])
        #expect(schema.enumType(named: "Level")?.cases.map(\.rawValue) == [.int(-1), .int(16), .int(17)])
        let movie = try #require(schema.entity(named: "Movie"))
        #expect(movie.attributes.map(\.type) == [.named("Genre"), .named("Language"), .named("Level"), .named("Genre")])
        #expect(movie.attributes[1].isOptional && movie.attributes[1].defaultValue == ".swift")
        #expect(schema.validate().isEmpty)
    }

    @Test func enumsWithoutRawValuesAreWarnedAboutWhereUsed() {
        let (schema, warnings) = load(
            #"""
            enum Shape: Codable {
                case circle(radius: Double)
                case square(side: Double)
            }
            enum Ratio: Double { case half = 0.5 }
            enum Unused { case a(Int) }
            @Model class Drawing {
                var name: String
                var shape: Shape
                var ratio: Ratio
            }
            """#)
        #expect(schema.entity(named: "Drawing")?.attributes.map(\.name) == ["name"])
        #expect(schema.enums.isEmpty)
        #expect(
            warnings.map(\.description) == [
                "Models.swift:9: warning: 'shape' has type 'Shape', an enum without Int or String raw values, which pq cannot query; skipped",
                "Models.swift:10: warning: 'ratio' has type 'Ratio', an enum with Double raw values, which pq cannot query; skipped",
            ])
    }

    @Test func codableStructsBecomeComposites() throws {
        let (schema, warnings) = load(
            #"""
            struct Address: Codable, Hashable {
                var street: String
                var city: String = "Paris"
                var zip: Int?
                var kind: Kind = .home
                var geo: Geo
                var label: String { "\(street), \(city)" }
                static let empty = Address(street: "", city: "")
                init(street: String, city: String) { self.street = street; self.city = city; self.geo = Geo() }
                enum Kind: String, Codable { case home, work }
            }
            struct Geo: Codable { var lat = 0.0, lon = 0.0 }
            @Model class Person {
                var address: Address
                var previous: Address?
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        let address = try #require(schema.composite(named: "Address"))
        #expect(address.fields.map(\.name) == ["street", "city", "zip", "kind", "geo"])
        #expect(address.fields[1].defaultValue == #""Paris""#)
        #expect(address.fields[2].isOptional)
        #expect(address.fields[3].type == .named("Kind") && address.fields[4].type == .named("Geo"))
        #expect(schema.composite(named: "Geo")?.fields.map(\.type) == [.double, .double])
        #expect(schema.enumType(named: "Kind") == EnumType.string("Kind", ["home", "work"]))
        #expect(schema.entity(named: "Person")?.attributes.map(\.isOptional) == [false, true])
        #expect(schema.validate().isEmpty)
    }

    @Test func nestedTypesExtensionsAndComputedProperties() throws {
        let (schema, warnings) = load(
            #"""
            @Model final class Budget {
                var name: String
                var limit: Double
                var kind: Kind = Kind.personal
                @Relationship(deleteRule: .cascade) var transactions: [Transaction] = []

                enum Kind: String, Codable { case personal, shared }

                var isOver: Bool {
                    total > limit
                }
                var label: String {
                    get { "\(name): \(self.limit)" }
                    set { name = newValue }
                }
            }
            @Model final class Transaction {
                var amount: Double
                var budget: Budget?
            }
            extension Budget {
                var total: Double { transactions.reduce(0) { $0 + $1.amount } }
                var summary: String { format(name: other.name, limit) }
                func format(name: String, _ limit: Double) -> String { name }
                static var sample: Budget { Budget() }
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        let budget = try #require(schema.entity(named: "Budget"))
        #expect(budget.attributes.map(\.name) == ["name", "limit", "kind"])
        #expect(budget.attributes[2].type == .named("Kind"))
        #expect(
            budget.computedProperties == [
                ComputedProperty("isOver", typeName: "Bool", dependencies: ["limit"]),
                ComputedProperty("label", typeName: "String", dependencies: ["name", "limit"]),
                ComputedProperty("total", typeName: "Double", dependencies: ["transactions"]),
                ComputedProperty("summary", typeName: "String", dependencies: ["limit"]),
            ])
        #expect(schema.validate().isEmpty)
    }

    @Test func conditionalCompilationReadsTheFirstBranch() throws {
        let (schema, warnings) = load(
            #"""
            import SwiftData
            #if canImport(UIKit)
            import UIKit
            #else
            import AppKit
            #endif

            @Model final class Device {
                var name: String
                #if os(iOS)
                var badge: Int = 0
                #elseif os(macOS)
                var dock: Int = 0
                #else
                var other: Int = 0
                #endif
                var serial: String
            }

            struct SettingsView {
                var body: some View {
                    #if DEBUG
                    Text("debug")
                    #else
                    Text("release")
                    #endif
                }
            }
            """#)
        #expect(try #require(schema.entity(named: "Device")).attributes.map(\.name) == ["name", "badge", "serial"])
        #expect(
            warnings.map(\.description) == [
                "Models.swift:4: warning: pq reads only the first branch of the #if at line 2; skipped its #else branch and any after it",
                "Models.swift:12: warning: pq reads only the first branch of the #if at line 10; skipped its #elseif branch and any after it",
            ])
    }

    @Test func otherCodeBesideTheModelsIsIgnoredSilently() {
        let (schema, warnings) = load(
            #"""
            import SwiftUI
            import SwiftData

            @main
            struct NotesApp: App {
                var body: some Scene {
                    WindowGroup { ContentView() }.modelContainer(for: Note.self)
                }
            }

            struct ContentView: View {
                @Query(sort: \Note.title) private var notes: [Note]
                @Environment(\.modelContext) private var context
                @State private var filter = ""
                var body: some View {
                    List(notes) { note in Text(note.title) }
                }
            }

            #Preview {
                ContentView()
            }

            protocol Titled { var title: String { get set } }

            let formatter = DateFormatter()
            print("hello") ; if true { }

            @Model final class Note: Titled {
                var title: String
                #Unique<Note>([\.title])
                #Index<Note>([\.title])
                init(title: String) { self.title = title }
            }
            """#)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(schema.entities.map(\.name) == ["Note"])
        #expect(schema.entities.first?.attributes.map(\.name) == ["title"])
    }

    @Test func modelOnAStructIsWarnedAbout() {
        let (schema, warnings) = load("@Model struct Wrong { var x: Int }")
        #expect(schema.entities.isEmpty)
        #expect(warnings.map(\.message) == ["@Model applies to classes, and 'Wrong' is a struct; skipped"])
    }
}
