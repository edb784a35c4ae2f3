// The example store's objects: hand-written rows that the README and the golden
// tests show, and, on request, deterministic filler rows so every entity has a
// few hundred objects to query.

import Foundation
import PredicateQuery

/// Deterministic sample data for `ExampleSchemas.combined`.
public enum ExampleData {
    /// The example objects: the hand-written rows, then `fillerPerEntity` generated
    /// objects per entity (the same ones for the same arguments, on every machine).
    public static func graph(fillerPerEntity: Int = 0) -> ObjectGraph {
        var builder = Builder(graph: ObjectGraph(schema: ExampleSchemas.combined))
        builder.addBudgets()
        builder.addMovies()
        builder.addSnippets()
        builder.addRecipes()
        builder.addUsers()
        if fillerPerEntity > 0 { builder.addFiller(fillerPerEntity) }
        return builder.graph
    }

    /// A date in UTC from `2024-05-01` or `2024-05-01T10:30:00`.
    static func date(_ text: String) -> Value {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.formatOptions =
            text.count > 10
            ? [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
            : [.withFullDate, .withDashSeparatorInDate]
        return formatter.date(from: text).map(Value.date) ?? .null
    }

    struct Builder {
        var graph: ObjectGraph
        var state: UInt64 = 0x2545_F491_4F6C_DD1D

        init(graph: ObjectGraph) {
            self.graph = graph
        }

        mutating func addBudgets() {
            let budgets: [(String, Double)] = [
                ("Vacation", 1_500), ("Groceries", 400), ("Rent", 1_200), ("Travel", 2_000), ("Vacuum Repair", 80),
                ("Gifts", 150), ("Emergency", 5_000), ("Vacation Rentals", 900),
            ]
            let ids = budgets.map { graph.insert("Budget", ["name": .string($0.0), "limit": .double($0.1)]) }
            let transactions: [(String, Double, String, Bool, Int?)] = [
                ("Flights to Lisbon", 640, "2024-03-02", true, 0), ("Hotel", 720.5, "2024-03-10", true, 0),
                ("Museum tickets", 36, "2024-03-12", false, 0), ("Weekly shop", 84.2, "2024-04-01", true, 1),
                ("Farmers market", 23.5, "2024-04-06", false, 1), ("Bakery", 6.8, "2024-04-07", false, 1),
                ("April rent", 1_200, "2024-04-01", true, 2), ("May rent", 1_200, "2024-05-01", true, 2),
                ("Train to Porto", 54, "2024-03-15", true, 3), ("New filter", 25, "2024-02-20", false, 4),
                ("Birthday present", 60, "2024-05-12", true, 5), ("Flowers", 35, "2024-05-12", false, 5),
                ("Cash withdrawal", 100, "2024-05-20", false, nil), ("Cabin deposit", 300, "2024-06-01", true, 7),
            ]
            for (note, amount, day, receipt, budget) in transactions {
                let id = graph.insert(
                    "Transaction",
                    [
                        "note": .string(note), "amount": .double(amount), "date": ExampleData.date(day),
                        "hasReceipt": .bool(receipt),
                    ])
                if let budget { graph.link(id, "budget", to: ids[budget]) }
            }
        }

        mutating func addMovies() {
            let movies: [(String, Int64)] = [
                ("Die Hard", 1), ("Toy Story", 2), ("The Shining", 3), ("Frozen", 2), ("Mad Max: Fury Road", 1),
                ("Alien", 3), ("Paddington", 2), ("Heat", 1),
            ]
            for (name, genre) in movies { graph.insert("Movie", ["name": .string(name), "genre": .int(genre)]) }
        }

        mutating func addSnippets() {
            let folders = [
                ("work", "Work", "2024-01-10"), ("personal", "Personal", "2024-02-01"), ("archive", "Archive", "2023-11-30"),
            ]
            let folderIDs = folders.map {
                graph.insert("Folder", ["id": .string($0.0), "newName": .string($0.1), "creationDate": ExampleData.date($0.2)])
            }
            let tagIDs = ["swift", "swiftui", "networking", "css", "café"].map { graph.insert("Tag", ["name": .string($0)]) }
            let snippets: [(String, String?, Bool, String, Int?, [Int])] = [
                ("struct ContentView: View { }", "swift", true, "Starting point for every screen", 0, [0, 1]),
                ("URLSession.shared.data(from: url)", "swift", true, "Async networking", 0, [0, 2]),
                ("@objc func tapped() {}", "objectivec", false, "Legacy target-action", 0, []),
                ("print(\"Hello\")", "python", false, "", 1, []),
                (".card { display: grid; }", "css", true, "Grid layout for cards", 1, [3]),
                ("let greeting = \"Hallo, Straße\"", "swift", false, "Unicode sample", 1, [0, 4]),
                ("interface Point { x: number }", "typescript", false, "Types", nil, []),
                ("SELECT * FROM ZBUDGET", nil, false, "Inspect the store", 2, []),
            ]
            for (index, snippet) in snippets.enumerated() {
                var values: [String: Value] = [
                    "uuid": .uuid(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index + 1)) ?? UUID()),
                    "creationDate": ExampleData.date(String(format: "2024-0%d-1%dT09:30:00", index % 5 + 1, index)),
                    "code": .string(snippet.0), "isFavorite": .bool(snippet.2), "notes": .string(snippet.3),
                ]
                if let language = snippet.1 { values["language"] = .string(language) }
                if index == 1 { values["image"] = .data(Data([0x89, 0x50, 0x4E, 0x47])) }
                let id = graph.insert("Snippet", values)
                if let folder = snippet.4 { graph.link(id, "folder", to: folderIDs[folder]) }
                for tag in snippet.5 { graph.link(id, "tags", to: tagIDs[tag]) }
            }
        }

        mutating func addRecipes() {
            let ingredientIDs = ["Egg", "Milk", "Flour", "Cheese", "Lettuce", "Tomato", "Water", "Salt", "Tea leaves"].map {
                graph.insert("Ingredient", ["name": .string($0)])
            }
            let recipes: [(String, [Int])] = [
                ("Pancakes", [0, 1, 2]), ("Omelette", [0, 3, 7]), ("Salad", [4, 5, 7]), ("Bread", [2, 6, 7]), ("Tea", [6, 8]),
                ("Ice", [6]),
            ]
            for (name, ingredients) in recipes {
                let id = graph.insert("Recipe", ["name": .string(name)])
                for ingredient in ingredients { graph.link(id, "ingredients", to: ingredientIDs[ingredient]) }
            }
        }

        mutating func addUsers() {
            let users: [(String, Int64)] = [
                ("Paul", 43), ("Sophie", 13), ("Charlotte", 10), ("Anna", 67), ("Tom", 17), ("Mia", 29),
            ]
            let ids = users.map { graph.insert("User", ["name": .string($0.0), "age": .int($0.1)]) }
            graph.link(ids[0], "children", to: ids[1])
            graph.link(ids[0], "children", to: ids[2])
            graph.link(ids[3], "children", to: ids[0])
            let pets: [(String, Int64, Int?)] = [
                ("Rex", 5, 0), ("Whiskers", 2, 1), ("Goldie", 1, nil), ("Bella", 9, 3), ("Milo", 3, 0),
            ]
            for (name, age, owner) in pets {
                let id = graph.insert("Pet", ["name": .string(name), "age": .int(age)])
                if let owner { graph.link(id, "owner", to: ids[owner]) }
            }
        }
    }
}
