// The example models as plain Swift classes that declare their query metadata
// (`QueryModel`): what a server-side Swift user writes instead of `@Model`. They
// give the same schema as `ExampleSchemas` (`BuilderTests.theSchemaComesFromTheModelTypes` keeps the two
// equal), are what the typed builder and Foundation's `#Predicate` are written
// against in the tests, and hold the example data in memory for the oracle tests.

import Foundation
import PredicateQuery

/// `enum Genre: Int { case action = 1, kids, horror }`.
public enum Genre: Int, QueryEnum, Codable, Sendable {
    /// A movie's genre, stored as its raw value: `action` 1, `kids` 2, `horror` 3.
    case action = 1, kids, horror
}

/// `enum CodingLanguage: String { case swift, objectivec, python, css, typescript }`.
public enum CodingLanguage: String, QueryEnum, Codable, Sendable {
    /// The language a snippet is written in, stored as its name.
    case swift, objectivec, python, css, typescript
}

/// A spending budget with a limit, and the transactions booked against it (the Budgets example).
public final class Budget: QueryModel {
    /// The budget's name: `Vacation`.
    public var name: String
    /// How much may be spent.
    public var limit: Double
    /// The transactions booked against the budget; deleting the budget deletes them.
    public var transactions: [Transaction] = []

    /// A budget `name` of `limit`, with no transactions yet.
    public init(name: String, limit: Double) {
        self.name = name
        self.limit = limit
    }

    public static var queryProperties: [QueryProperty<Budget>] {
        [.attribute(\.name), .attribute(\.limit), .toMany(\.transactions, inverse: \Transaction.budget, deleteRule: .cascade)]
    }
}

/// An amount spent on a day, booked against at most one budget.
public final class Transaction: QueryModel {
    /// What it was for: `Hotel`.
    public var note: String
    /// How much was spent.
    public var amount: Double
    /// When.
    public var date: Date
    /// Whether a receipt was kept.
    public var hasReceipt: Bool
    /// The budget it is booked against, if any.
    public var budget: Budget?

    /// A transaction of `amount` on `date` for `note`.
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

/// A movie and its genre, an enum stored as its raw value (the Movies example).
public final class Movie: QueryModel {
    /// The title.
    public var name: String
    /// The genre, compared with its cases: `genre == .kids`.
    public var genre: Genre

    /// A movie `name` of `genre`.
    public init(name: String, genre: Genre) {
        self.name = name
        self.genre = genre
    }

    public static var queryProperties: [QueryProperty<Movie>] { [.attribute(\.name), .attribute(\.genre)] }
}

/// The workaround SwiftData users write: a stored `genreId` and a computed `genre`.
public final class WorkaroundMovie: QueryModel {
    /// The title.
    public var name: String
    /// The genre's raw value, stored in place of the enum.
    public var genreId: Int
    /// The genre, computed from `genreId`: not stored, so queries cannot use it.
    public var genre: Genre { Genre(rawValue: genreId) ?? .action }

    /// A movie `name` whose genre has the raw value `genreId`.
    public init(name: String, genreId: Int) {
        self.name = name
        self.genreId = genreId
    }

    public static var entityName: String { "Movie" }
    public static var queryProperties: [QueryProperty<WorkaroundMovie>] {
        [.attribute(\.name), .attribute(\.genreId), .computed(\.genre, name: "genre", from: [\.genreId])]
    }
}

/// A folder of code snippets (the SnippetBox example).
public final class Folder: QueryModel {
    /// The folder's unique identifier.
    public var id: String
    /// The folder's name, stored under its original name, `name`.
    public var newName: String
    /// When the folder was made.
    public var creationDate: Date
    /// The snippets in the folder; deleting the folder deletes them.
    public var snippets: [Snippet] = []

    /// A folder `id` named `newName`, made at `creationDate`.
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

/// A piece of code kept for later, in a folder, with tags (the SnippetBox example).
public final class Snippet: QueryModel {
    /// The snippet's identifier.
    public var uuid: UUID
    /// When the snippet was made.
    public var creationDate: Date
    /// The code.
    public var code: String
    /// A picture of it, kept beside the store rather than in its tables (`@Attribute(.externalStorage)`).
    public var image: Data?
    /// Whether the user starred it.
    public var isFavorite: Bool
    /// The user's notes.
    public var notes: String
    /// A title shown in the app: transient, never stored, so queries cannot use it.
    public var title: String = ""
    /// The language the code is in, if known.
    public var language: CodingLanguage?
    /// The folder the snippet is in, if any.
    public var folder: Folder?
    /// The snippet's tags; many-to-many with `Tag.snippets`.
    public var tags: [Tag]? = []

    /// A snippet of `code` in `language`, made at `creationDate`.
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

/// A tag on snippets (the SnippetBox example).
public final class Tag: QueryModel {
    /// The tag's text: `swift`.
    public var name: String
    /// The snippets with the tag.
    public var snippets: [Snippet] = []

    /// A tag `name` on no snippet yet.
    public init(name: String) {
        self.name = name
    }

    public static var queryProperties: [QueryProperty<Tag>] {
        [.attribute(\.name), .toMany(\.snippets, inverse: \Snippet.tags)]
    }
}

/// A recipe and its ingredients (the Recipes example).
public final class Recipe: QueryModel {
    /// The recipe's name: `Pancakes`.
    public var name: String
    /// What goes into it; many-to-many with `Ingredient.recipes`.
    public var ingredients: [Ingredient] = []

    /// A recipe `name` with no ingredients yet.
    public init(name: String) {
        self.name = name
    }

    public static var queryProperties: [QueryProperty<Recipe>] {
        [.attribute(\.name), .toMany(\.ingredients, inverse: \Ingredient.recipes)]
    }
}

/// An ingredient of recipes (the Recipes example).
public final class Ingredient: QueryModel {
    /// The ingredient's name: `Egg`.
    public var name: String
    /// The recipes it goes into.
    public var recipes: [Recipe] = []

    /// An ingredient `name` in no recipe yet.
    public init(name: String) {
        self.name = name
    }

    public static var queryProperties: [QueryProperty<Ingredient>] {
        [.attribute(\.name), .toMany(\.recipes, inverse: \Recipe.ingredients)]
    }
}

/// A user with children (users too) and pets (the Users example).
public final class User: QueryModel {
    /// The user's name, unique.
    public var name: String
    /// The user's age in years.
    public var age: Int
    /// The user's children: a to-many relationship to the same entity, with no inverse.
    public var children: [User] = []
    /// The user's pets; deleting the user deletes them.
    public var pets: [Pet] = []

    /// A user `name` of `age`, with no children or pets yet.
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

/// A pet and its owner (the Users example).
public final class Pet: QueryModel {
    /// The pet's name.
    public var name: String
    /// The pet's age in years.
    public var age: Int
    /// The user it belongs to, if any.
    public var owner: User?

    /// A pet `name` of `age`, with no owner yet.
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
