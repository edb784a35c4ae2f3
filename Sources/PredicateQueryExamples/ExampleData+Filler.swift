// Deterministic filler rows: a simple linear congruential generator picks names
// from word lists, amounts, dates and links, so the example store has a few
// hundred objects per entity and the same ones on every machine.

import Foundation
import PredicateQuery

extension ExampleData.Builder {
    private static let words = [
        "Alpine", "Harbor", "Maple", "Cedar", "Nova", "Orbit", "Pixel", "Quartz", "Rhythm", "Solace", "Tundra",
        "Umber", "Velvet", "Willow", "Zephyr", "Aurora", "Basil", "Cobalt", "Dune", "Ember",
    ]

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(max(1, bound)))
    }

    private mutating func word() -> String { Self.words[next(Self.words.count)] }

    private mutating func day() -> Value {
        ExampleData.date(String(format: "2024-%02d-%02d", next(12) + 1, next(28) + 1))
    }

    mutating func addFiller(_ count: Int) {
        let budgets = (0..<count).map { index in
            graph.insert("Budget", ["name": .string("\(word()) \(index)"), "limit": .double(Double(next(400) * 10))])
        }
        for index in 0..<count {
            let id = graph.insert(
                "Transaction",
                [
                    "note": .string("\(word()) purchase \(index)"), "amount": .double(Double(next(50_000)) / 100),
                    "date": day(), "hasReceipt": .bool(next(2) == 0),
                ])
            if next(10) > 0 { graph.link(id, "budget", to: budgets[next(budgets.count)]) }
        }
        for index in 0..<count {
            graph.insert("Movie", ["name": .string("\(word()) \(word()) \(index)"), "genre": .int(Int64(next(3) + 1))])
        }
        let folders = (0..<max(1, count / 10)).map { index in
            graph.insert("Folder", ["id": .string("folder-\(index)"), "newName": .string(word()), "creationDate": day()])
        }
        let tags = (0..<max(1, count / 5)).map { index in
            graph.insert("Tag", ["name": .string("\(word().lowercased())-\(index)")])
        }
        let languages = ["swift", "objectivec", "python", "css", "typescript"]
        for index in 0..<count {
            var values: [String: Value] = [
                "uuid": .uuid(UUID(uuidString: String(format: "00000000-0000-4000-9000-%012d", index)) ?? UUID()),
                "creationDate": day(), "code": .string("// \(word()) \(index)"), "isFavorite": .bool(next(4) == 0),
                "notes": .string(next(3) == 0 ? "" : "\(word()) notes"),
            ]
            if next(5) > 0 { values["language"] = .string(languages[next(languages.count)]) }
            let id = graph.insert("Snippet", values)
            if next(4) > 0 { graph.link(id, "folder", to: folders[next(folders.count)]) }
            for _ in 0..<next(4) { graph.link(id, "tags", to: tags[next(tags.count)]) }
        }
        let ingredients = (0..<count).map { index in graph.insert("Ingredient", ["name": .string("\(word()) \(index)")]) }
        for index in 0..<count {
            let id = graph.insert("Recipe", ["name": .string("\(word()) dish \(index)")])
            for _ in 0..<next(6) { graph.link(id, "ingredients", to: ingredients[next(ingredients.count)]) }
        }
        let users = (0..<count).map { index in
            graph.insert("User", ["name": .string("\(word()) \(index)"), "age": .int(Int64(next(90)))])
        }
        for user in users where next(4) == 0 { graph.link(user, "children", to: users[next(users.count)]) }
        for index in 0..<count {
            let id = graph.insert("Pet", ["name": .string("\(word()) \(index)"), "age": .int(Int64(next(20)))])
            if next(5) > 0 { graph.link(id, "owner", to: users[next(users.count)]) }
        }
    }
}
