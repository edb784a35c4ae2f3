// The example data as Swift objects of the example model classes, linked as the
// object graph links them: what Foundation's `#Predicate` evaluates in memory,
// to compare with what pq's SQL selects (the oracle tests), and what an
// in-memory filter is measured against (the benchmarks).

import Foundation
import PredicateQuery

/// Swift objects for every object of an example object graph.
public struct ExampleObjects {
    /// The objects of each entity, in key order.
    public private(set) var byEntity: [String: [(id: ObjectID, object: AnyObject)]] = [:]

    /// Builds an object for every object of `graph` (of the combined example schema)
    /// and links them.
    public init(_ graph: ObjectGraph) {
        var made: [ObjectID: AnyObject] = [:]
        for id in graph.objects.keys.sorted() {
            guard let object = graph[id], let swiftObject = Self.make(object) else { continue }
            made[id] = swiftObject
            byEntity[id.entity, default: []].append((id, swiftObject))
        }
        for (id, swiftObject) in made {
            guard let object = graph[id] else { continue }
            Self.link(swiftObject, object, made)
        }
    }

    /// The objects of one model class, in key order.
    public func objects<Model: QueryModel>(_ type: Model.Type) -> [(id: ObjectID, object: Model)] {
        (byEntity[Model.entityName] ?? []).compactMap { entry in
            (entry.object as? Model).map { (entry.id, $0) }
        }
    }

    private static func make(_ object: GraphObject) -> AnyObject? {
        let values = object.values
        func string(_ name: String) -> String {
            if case .string(let text)? = values[name] { return text }
            return ""
        }
        func double(_ name: String) -> Double {
            switch values[name] {
            case .double(let number)?: return number
            case .int(let number)?: return Double(number)
            default: return 0
            }
        }
        func int(_ name: String) -> Int {
            if case .int(let number)? = values[name] { return Int(number) }
            return 0
        }
        func bool(_ name: String) -> Bool {
            if case .bool(let flag)? = values[name] { return flag }
            return false
        }
        func date(_ name: String) -> Date {
            if case .date(let date)? = values[name] { return date }
            return Date(timeIntervalSinceReferenceDate: 0)
        }
        switch object.id.entity {
        case "Budget": return Budget(name: string("name"), limit: double("limit"))
        case "Transaction":
            return Transaction(note: string("note"), amount: double("amount"), date: date("date"), hasReceipt: bool("hasReceipt"))
        case "Movie": return Movie(name: string("name"), genre: Genre(rawValue: int("genre")) ?? .action)
        case "Folder": return Folder(id: string("id"), newName: string("newName"), creationDate: date("creationDate"))
        case "Snippet":
            var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            if case .uuid(let value)? = values["uuid"] { uuid = value }
            var image: Data?
            if case .data(let data)? = values["image"] { image = data }
            let language = values["language"].flatMap { value -> CodingLanguage? in
                if case .string(let raw) = value { return CodingLanguage(rawValue: raw) }
                return nil
            }
            return Snippet(
                uuid: uuid, creationDate: date("creationDate"), code: string("code"), isFavorite: bool("isFavorite"),
                notes: string("notes"), language: language, image: image)
        case "Tag": return Tag(name: string("name"))
        case "Recipe": return Recipe(name: string("name"))
        case "Ingredient": return Ingredient(name: string("name"))
        case "User": return User(name: string("name"), age: int("age"))
        case "Pet": return Pet(name: string("name"), age: int("age"))
        default: return nil
        }
    }

    private static func link(_ swiftObject: AnyObject, _ object: GraphObject, _ made: [ObjectID: AnyObject]) {
        func one<T>(_ name: String) -> T? { object.toOne[name].flatMap { made[$0] as? T } }
        func many<T>(_ name: String) -> [T] { (object.toMany[name] ?? []).compactMap { made[$0] as? T } }
        switch swiftObject {
        case let budget as Budget: budget.transactions = many("transactions")
        case let transaction as Transaction: transaction.budget = one("budget")
        case let folder as Folder: folder.snippets = many("snippets")
        case let snippet as Snippet:
            snippet.folder = one("folder")
            snippet.tags = many("tags")
        case let tag as Tag: tag.snippets = many("snippets")
        case let recipe as Recipe: recipe.ingredients = many("ingredients")
        case let ingredient as Ingredient: ingredient.recipes = many("recipes")
        case let user as User:
            user.children = many("children")
            user.pets = many("pets")
        case let pet as Pet: pet.owner = one("owner")
        default: break
        }
    }
}
