// The schemas of the models in Examples/Models, declared through the schema API.
//
// These are the models of the SwiftData articles pq grew from, for the tests and
// the example store. `SwiftModelSource` reads the same schemas from the Swift files
// of Examples/Models, and tests (SwiftModelSourceExampleTests) keep the two equal.

import PredicateQuery

/// The example schemas, one per folder of Examples/Models.
public enum ExampleSchemas {
    /// Budgets/: `Budget` with cascading `transactions`, `Transaction` with an optional `budget`.
    public static let budgets = Schema(entities: [
        Entity(
            "Budget",
            attributes: [Attribute("name", .string), Attribute("limit", .double)],
            relationships: [
                Relationship(
                    "transactions", toMany: "Transaction", inverse: "budget",
                    deleteRule: .cascade)
            ]),
        Entity(
            "Transaction",
            attributes: [
                Attribute("note", .string), Attribute("amount", .double), Attribute("date", .date),
                Attribute("hasReceipt", .bool, defaultValue: "false"),
            ],
            relationships: [Relationship("budget", to: "Budget", inverse: "transactions")]),
    ])

    /// `enum Genre: Int, Codable { case action = 1, kids, horror }`.
    public static let genre = EnumType.int("Genre", ["action", "kids", "horror"], startingAt: 1)

    /// Movies/: `Movie` with a stored `genre: Genre`.
    public static let movies = Schema(
        entities: [Entity("Movie", attributes: [Attribute("name", .string), Attribute("genre", .named("Genre"))])],
        enums: [genre])

    /// MoviesWorkaround/: `Movie` with a stored `genreId: Int` and a computed `genre`.
    public static let moviesWorkaround = Schema(
        entities: [
            Entity(
                "Movie",
                attributes: [Attribute("name", .string), Attribute("genreId", .integer(bits: 64))],
                computedProperties: [ComputedProperty("genre", typeName: "Genre", dependencies: ["genreId"])])
        ],
        enums: [genre])

    /// `enum CodingLanguage: String { case swift, objectivec, python, css, typescript }`.
    public static let codingLanguage = EnumType.string(
        "CodingLanguage", ["swift", "objectivec", "python", "css", "typescript"])

    /// `struct ColorData: Codable { var red, green, blue, opacity: Double }`.
    public static let colorData = CompositeType(
        "ColorData",
        fields: ["red", "green", "blue", "opacity"].map {
            Attribute($0, .double, defaultValue: "1")
        })

    /// SnippetBox/: `Snippet`, `Folder` (one-to-many, cascading) and `Tag` (many-to-many).
    public static let snippetBox = Schema(
        entities: [
            Entity(
                "Folder",
                attributes: [
                    Attribute("id", .string, unique: true),
                    Attribute("newName", .string, originalName: "name"),
                    Attribute("creationDate", .date),
                ],
                relationships: [Relationship("snippets", toMany: "Snippet", inverse: "folder", deleteRule: .cascade)]),
            Entity(
                "Snippet",
                attributes: [
                    Attribute("uuid", .uuid), Attribute("creationDate", .date), Attribute("code", .string),
                    Attribute("image", .data, optional: true, externalStorage: true),
                    Attribute("isFavorite", .bool), Attribute("notes", .string),
                    Attribute("title", .string, defaultValue: "\"\"", transient: true),
                    Attribute("language", .named("CodingLanguage"), optional: true),
                ],
                relationships: [
                    Relationship("folder", to: "Folder", inverse: "snippets"),
                    Relationship("tags", toMany: "Tag", optional: true, inverse: "snippets"),
                ]),
            Entity(
                "Tag",
                attributes: [
                    Attribute("name", .string),
                    Attribute(
                        "colorData", .named("ColorData"),
                        defaultValue: "ColorData(red: 1, green: 1, blue: 1, opacity: 1)"),
                ],
                relationships: [Relationship("snippets", toMany: "Snippet", inverse: "tags")]),
        ],
        enums: [codingLanguage],
        composites: [colorData])

    /// Recipes/: `Recipe` and `Ingredient`, many-to-many.
    public static let recipes = Schema(entities: [
        Entity(
            "Ingredient",
            attributes: [Attribute("name", .string)],
            relationships: [Relationship("recipes", toMany: "Recipe", inverse: "ingredients")]),
        Entity(
            "Recipe",
            attributes: [Attribute("name", .string)],
            relationships: [Relationship("ingredients", toMany: "Ingredient", inverse: "recipes")]),
    ])

    /// Users/: `User` with `children: [User]` and `pets` (inverse `owner`), and `Pet`.
    public static let users = Schema(entities: [
        Entity(
            "Pet",
            attributes: [Attribute("name", .string), Attribute("age", .integer(bits: 64))],
            relationships: [Relationship("owner", to: "User", inverse: "pets")]),
        Entity(
            "User",
            attributes: [Attribute("name", .string, unique: true), Attribute("age", .integer(bits: 64))],
            relationships: [
                Relationship("children", toMany: "User"),
                Relationship("pets", toMany: "Pet", inverse: "owner", deleteRule: .cascade),
            ]),
    ])

    /// Each example schema by its Examples/Models folder name.
    public static let byName: [(name: String, schema: Schema)] = [
        ("Budgets", budgets), ("Movies", movies), ("MoviesWorkaround", moviesWorkaround),
        ("SnippetBox", snippetBox), ("Recipes", recipes), ("Users", users),
    ]

    /// The example store's schema: every example model except the workaround Movie.
    public static let combined = Schema(
        entities: [budgets, movies, snippetBox, recipes, users].flatMap(\.entities),
        enums: [genre, codingLanguage],
        composites: [colorData])
}
