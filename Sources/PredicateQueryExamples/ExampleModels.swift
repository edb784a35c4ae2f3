// The example models as plain Swift classes that declare their query metadata
// (`QueryModel`): what a server-side Swift user writes instead of `@Model`. They
// give the same schema as `ExampleSchemas` (ExampleModelsTests keeps the two
// equal), are what the typed builder and Foundation's `#Predicate` are written
// against in the tests, and hold the example data in memory for the oracle tests.

import Foundation
import PredicateQuery

/// `enum Genre: Int { case action = 1, kids, horror }`.
public enum Genre: Int, QueryEnum, Codable, Sendable {
    case action = 1, kids, horror
}

/// `enum CodingLanguage: String { case swift, objectivec, python, css, typescript }`.
public enum CodingLanguage: String, QueryEnum, Codable, Sendable {
    case swift, objectivec, python, css, typescript
}

public final class Budget: QueryModel {
    public var name: String
    public var limit: Double
    public var transactions: [Transaction] = []

    public init(name: String, limit: Double) {
        self.name = name
        self.limit = limit
    }

    public static var queryProperties: [QueryProperty<Budget>] {
        [.attribute(\.name), .attribute(\.limit), .toMany(\.transactions, inverse: \Transaction.budget, deleteRule: .cascade)]
    }
}

public final class Transaction: QueryModel {
    public var note: String
    public var amount: Double
    public var date: Date
    public var hasReceipt: Bool
    public var budget: Budget?

    public init(note: String, amount: Double, date: Date, hasReceipt: Bool = false, budget: Budget? = nil) {
        self.note = note
        self.amount = amount
        self.date = date
        self.hasReceipt = hasReceipt
        self.budget = budget
    }

    public static var queryProperties: [QueryProperty<Transaction>] {
        [
            .attribute(\.note), .attribute(\.amount), .attribute(\.date), .attribute(\.hasReceipt, defaultValue: "false"),
            .toOne(\.budget, inverse: \Budget.transactions),
        ]
    }
}

public final class Movie: QueryModel {
    public var name: String
    public var genre: Genre

    public init(name: String, genre: Genre) {
        self.name = name
        self.genre = genre
    }

    public static var queryProperties: [QueryProperty<Movie>] { [.attribute(\.name), .attribute(\.genre)] }
}

/// The workaround SwiftData users write: a stored `genreId` and a computed `genre`.
public final class WorkaroundMovie: QueryModel {
    public var name: String
    public var genreId: Int
    public var genre: Genre { Genre(rawValue: genreId) ?? .action }

    public init(name: String, genreId: Int) {
        self.name = name
        self.genreId = genreId
    }

    public static var entityName: String { "Movie" }
    public static var queryProperties: [QueryProperty<WorkaroundMovie>] {
        [.attribute(\.name), .attribute(\.genreId), .computed(\.genre, name: "genre", from: [\.genreId])]
    }
}

public final class Folder: QueryModel {
    public var id: String
    public var newName: String
    public var creationDate: Date
    public var snippets: [Snippet] = []

    public init(id: String, newName: String, creationDate: Date) {
        self.id = id
        self.newName = newName
        self.creationDate = creationDate
    }

    public static var queryProperties: [QueryProperty<Folder>] {
        [
            .attribute(\.id, unique: true), .attribute(\.newName, originalName: "name"), .attribute(\.creationDate),
            .toMany(\.snippets, inverse: \Snippet.folder, deleteRule: .cascade),
        ]
    }
}

public final class Snippet: QueryModel {
    public var uuid: UUID
    public var creationDate: Date
    public var code: String
    public var image: Data?
    public var isFavorite: Bool
    public var notes: String
    public var title: String = ""
    public var language: CodingLanguage?
    public var folder: Folder?
    public var tags: [Tag]? = []

    public init(
        uuid: UUID, creationDate: Date, code: String, isFavorite: Bool, notes: String, language: CodingLanguage?,
        image: Data? = nil
    ) {
        self.uuid = uuid
        self.creationDate = creationDate
        self.code = code
        self.isFavorite = isFavorite
        self.notes = notes
        self.language = language
        self.image = image
    }

    public static var queryProperties: [QueryProperty<Snippet>] {
        [
            .attribute(\.uuid), .attribute(\.creationDate), .attribute(\.code), .attribute(\.image, externalStorage: true),
            .attribute(\.isFavorite), .attribute(\.notes), .transient(\.title, defaultValue: "\"\""), .attribute(\.language),
            .toOne(\.folder, inverse: \Folder.snippets), .toMany(\.tags, inverse: \Tag.snippets),
        ]
    }
}

public final class Tag: QueryModel {
    public var name: String
    public var snippets: [Snippet] = []

    public init(name: String) {
        self.name = name
    }

    public static var queryProperties: [QueryProperty<Tag>] {
        [.attribute(\.name), .toMany(\.snippets, inverse: \Snippet.tags)]
    }
}

public final class Recipe: QueryModel {
    public var name: String
    public var ingredients: [Ingredient] = []

    public init(name: String) {
        self.name = name
    }

    public static var queryProperties: [QueryProperty<Recipe>] {
        [.attribute(\.name), .toMany(\.ingredients, inverse: \Ingredient.recipes)]
    }
}

public final class Ingredient: QueryModel {
    public var name: String
    public var recipes: [Recipe] = []

    public init(name: String) {
        self.name = name
    }

    public static var queryProperties: [QueryProperty<Ingredient>] {
        [.attribute(\.name), .toMany(\.recipes, inverse: \Recipe.ingredients)]
    }
}

public final class User: QueryModel {
    public var name: String
    public var age: Int
    public var children: [User] = []
    public var pets: [Pet] = []

    public init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    public static var queryProperties: [QueryProperty<User>] {
        [
            .attribute(\.name, unique: true), .attribute(\.age), .toMany(\.children),
            .toMany(\.pets, inverse: \Pet.owner, deleteRule: .cascade),
        ]
    }
}

public final class Pet: QueryModel {
    public var name: String
    public var age: Int
    public var owner: User?

    public init(name: String, age: Int) {
        self.name = name
        self.age = age
    }

    public static var queryProperties: [QueryProperty<Pet>] {
        [.attribute(\.name), .attribute(\.age), .toOne(\.owner, inverse: \User.pets)]
    }
}

extension ExampleSchemas {
    /// The model class of each example entity, by entity name: what `pq --emit swift`
    /// builds Foundation predicates for on the example store.
    public static var modelTypes: [String: any QueryModel.Type] {
        Dictionary(
        uniqueKeysWithValues: ([
            Budget.self, Transaction.self, Movie.self, Folder.self, Snippet.self, Tag.self,
            Recipe.self, Ingredient.self, User.self, Pet.self,
        ] as [any QueryModel.Type]).map { ($0.entityName, $0) })
    }

    /// The schema the model classes declare: `combined`, without the composite
    /// `Tag.colorData` (Codable structs are not queryable yet).
    public static var fromModels: Schema {
        Schema(models: [Budget.self, Movie.self, Folder.self, Recipe.self, User.self])
    }
}

// Model objects are equal when they are the same object, as SwiftData's models
// are; #Predicate needs this to compare a relationship with nil.

extension Budget: Hashable {
    public static func == (lhs: Budget, rhs: Budget) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Transaction: Hashable {
    public static func == (lhs: Transaction, rhs: Transaction) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Movie: Hashable {
    public static func == (lhs: Movie, rhs: Movie) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension WorkaroundMovie: Hashable {
    public static func == (lhs: WorkaroundMovie, rhs: WorkaroundMovie) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Folder: Hashable {
    public static func == (lhs: Folder, rhs: Folder) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Snippet: Hashable {
    public static func == (lhs: Snippet, rhs: Snippet) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Tag: Hashable {
    public static func == (lhs: Tag, rhs: Tag) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Recipe: Hashable {
    public static func == (lhs: Recipe, rhs: Recipe) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Ingredient: Hashable {
    public static func == (lhs: Ingredient, rhs: Ingredient) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension User: Hashable {
    public static func == (lhs: User, rhs: User) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Pet: Hashable {
    public static func == (lhs: Pet, rhs: Pet) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
