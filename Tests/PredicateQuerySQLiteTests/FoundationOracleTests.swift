// Apple's semantics as the oracle: for each predicate, Foundation's own
// `Predicate.evaluate` over the example data as Swift objects must select exactly
// the objects that pq's SQL (from the converted #Predicate) selects in SQLite.
// Where pq deliberately differs from Foundation, the difference is tested
// explicitly at the end, and documented in Documentation/Library.md.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

private let action = Genre.action
private let kids = Genre.kids
private let horror = Genre.horror
private let swift = CodingLanguage.swift
private let python = CodingLanguage.python
private let budgetNames = ["Rent", "Travel", "Gifts"]
private let actionOrHorror = [Genre.action, Genre.horror]
private let smallAges = [1, 2, 3]
private let march10 = Date(timeIntervalSinceReferenceDate: 731_721_600)
private let april1 = Date(timeIntervalSinceReferenceDate: 733_622_400)
private let may1 = Date(timeIntervalSinceReferenceDate: 736_214_400)

/// The example data (with filler rows) in a store and as Swift objects.
private struct Fixture {
    let store: SQLiteStore
    let objects: ExampleObjects

    init(graph: ObjectGraph = ExampleData.graph(fillerPerEntity: 40)) throws {
        store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
        try store.insert(graph)
        objects = ExampleObjects(graph)
    }

    /// What Foundation selects, and what pq selects, for one predicate.
    func select<M: QueryModel>(_ predicate: Predicate<M>) throws -> (foundation: [ObjectID], pq: [ObjectID]) {
        let expected = try objects.objects(M.self).filter { try predicate.evaluate($0.object) }.map(\.id)
        let query = try ModelQuery(predicate)
        let result = query.compile(schema: store.schema, mapping: store.mapping)
        let compiled = try #require(result.compiled, "\(result.diagnostics.map(\.message)) for \(query.text)")
        let actual = try store.fetch(compiled, parameters: query.boundValues).map(\.id)
        return (expected, actual)
    }

    /// Compares every predicate; returns how many selected at least one object.
    func compare<M: QueryModel>(_ cases: [(line: Int, predicate: Predicate<M>)]) throws -> Int {
        var nonEmpty = 0
        for (line, predicate) in cases {
            let (expected, actual) = try select(predicate)
            #expect(actual == expected, "FoundationOracleTests.swift:\(line) (\(M.self))")
            if !expected.isEmpty { nonEmpty += 1 }
        }
        return nonEmpty
    }
}

struct FoundationOracleTests {
    static let budgetCases: [(line: Int, predicate: Predicate<Budget>)] = {
        // One statement each, here and below: as one array literal, the type checker
        // took half a second over the 23 of transactionCases.
        var cases: [(line: Int, predicate: Predicate<Budget>)] = []
        cases.append((#line, #Predicate<Budget> { $0.limit > 100 }))
        cases.append((#line, #Predicate<Budget> { $0.name.contains("Vac") }))
        cases.append((#line, #Predicate<Budget> { $0.transactions.contains { $0.amount > 50 } }))
        cases.append((#line, #Predicate<Budget> { $0.transactions.allSatisfy { $0.hasReceipt } }))
        cases.append((#line, #Predicate<Budget> { $0.transactions.isEmpty }))
        cases.append((#line, #Predicate<Budget> { $0.transactions.count >= 2 }))
        cases.append((#line, #Predicate<Budget> { $0.transactions.filter { $0.hasReceipt }.count > 1 }))
        cases.append((#line, #Predicate<Budget> { budgetNames.contains($0.name) }))
        cases.append((#line, #Predicate<Budget> { (100.0...1000.0).contains($0.limit) }))
        cases.append((#line, #Predicate<Budget> { $0.limit * 2 > 1000 || $0.name.starts(with: "R") }))
        cases.append((#line, #Predicate<Budget> { !($0.limit < 500) && !$0.transactions.isEmpty }))
        return cases
    }()

    static let transactionCases: [(line: Int, predicate: Predicate<Transaction>)] = {
        var cases: [(line: Int, predicate: Predicate<Transaction>)] = []
        cases.append((#line, #Predicate<Transaction> { $0.budget?.name == "Travel" }))
        cases.append((#line, #Predicate<Transaction> { $0.budget == nil }))
        cases.append((#line, #Predicate<Transaction> { $0.budget != nil }))
        cases.append((#line, #Predicate<Transaction> { ($0.budget?.limit ?? 0) > 1000 }))
        cases.append((#line, #Predicate<Transaction> { ($0.budget?.limit ?? 0) >= $0.amount * 2 }))
        cases.append((#line, #Predicate<Transaction> { $0.amount > 50 && $0.hasReceipt }))
        cases.append((#line, #Predicate<Transaction> { !$0.hasReceipt }))
        cases.append((#line, #Predicate<Transaction> { $0.date > april1 }))
        cases.append((#line, #Predicate<Transaction> { $0.date >= march10 && $0.date < april1 }))
        cases.append((#line, #Predicate<Transaction> { $0.note.contains("rent") }))
        cases.append((#line, #Predicate<Transaction> { $0.note.starts(with: "May") }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.name != "Rent" }))
        cases.append((#line, #Predicate<Transaction> { ($0.budget?.name ?? "") == "" }))
        cases.append((#line, #Predicate<Transaction> { $0.amount - 10 < 0 }))
        cases.append((#line, #Predicate<Transaction> { -$0.amount < -100 }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.limit == 1500 }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.isEmpty == true }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.isEmpty != true }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.count == 0 }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.isEmpty ?? true }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.isEmpty == false }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.contains { $0.amount > 100 } ?? true }))
        cases.append((#line, #Predicate<Transaction> { $0.budget?.transactions.allSatisfy { $0.hasReceipt } ?? true }))
        return cases
    }()

    static let movieCases: [(line: Int, predicate: Predicate<Movie>)] = {
        var cases: [(line: Int, predicate: Predicate<Movie>)] = []
        cases.append((#line, #Predicate<Movie> { $0.genre == action }))
        cases.append((#line, #Predicate<Movie> { $0.genre != kids }))
        cases.append((#line, #Predicate<Movie> { actionOrHorror.contains($0.genre) }))
        cases.append((#line, #Predicate<Movie> { $0.name.starts(with: "T") }))
        cases.append((#line, #Predicate<Movie> { $0.genre == horror || $0.name.contains("a") }))
        cases.append((#line, #Predicate<Movie> { !($0.genre == action) }))
        return cases
    }()

    static let snippetCases: [(line: Int, predicate: Predicate<Snippet>)] = {
        var cases: [(line: Int, predicate: Predicate<Snippet>)] = []
        cases.append((#line, #Predicate<Snippet> { $0.language == swift }))
        cases.append((#line, #Predicate<Snippet> { $0.language == nil }))
        cases.append((#line, #Predicate<Snippet> { $0.language != python }))
        cases.append((#line, #Predicate<Snippet> { $0.isFavorite && $0.language != python }))
        cases.append((#line, #Predicate<Snippet> { $0.folder?.newName == "Work" }))
        cases.append((#line, #Predicate<Snippet> { $0.folder == nil }))
        cases.append((#line, #Predicate<Snippet> { $0.notes.contains("a") }))
        cases.append((#line, #Predicate<Snippet> { ($0.language ?? swift) == swift }))
        cases.append((#line, #Predicate<Snippet> { $0.creationDate < may1 }))
        cases.append((#line, #Predicate<Snippet> { $0.tags?.contains { $0.name == "swift" } ?? false }))
        cases.append((#line, #Predicate<Snippet> { $0.image == nil }))
        return cases
    }()

    static let recipeCases: [(line: Int, predicate: Predicate<Recipe>)] = {
        var cases: [(line: Int, predicate: Predicate<Recipe>)] = []
        cases.append((#line, #Predicate<Recipe> { $0.ingredients.contains { $0.name == "Flour" } }))
        cases.append((#line, #Predicate<Recipe> { $0.ingredients.count >= 3 }))
        cases.append((#line, #Predicate<Recipe> { $0.ingredients.allSatisfy { $0.name != "Salt" } }))
        cases.append((#line, #Predicate<Recipe> { $0.ingredients.isEmpty }))
        cases.append((#line, #Predicate<Recipe> { $0.ingredients.contains { $0.recipes.count > 2 } }))
        return cases
    }()

    static let ingredientCases: [(line: Int, predicate: Predicate<Ingredient>)] = {
        var cases: [(line: Int, predicate: Predicate<Ingredient>)] = []
        cases.append((#line, #Predicate<Ingredient> { $0.recipes.isEmpty || $0.name == "Egg" }))
        cases.append((#line, #Predicate<Ingredient> { $0.recipes.contains { $0.ingredients.count > 2 } }))
        return cases
    }()

    static let userCases: [(line: Int, predicate: Predicate<User>)] = {
        var cases: [(line: Int, predicate: Predicate<User>)] = []
        cases.append((#line, #Predicate<User> { $0.age >= 18 && $0.pets.isEmpty }))
        cases.append((#line, #Predicate<User> { $0.pets.contains { $0.age > 5 } }))
        cases.append((#line, #Predicate<User> { $0.children.contains { $0.age < 10 } }))
        cases.append((#line, #Predicate<User> { $0.children.contains { $0.pets.contains { $0.age > 2 } } }))
        cases.append((#line, #Predicate<User> { (30..<40).contains($0.age) }))
        cases.append((#line, #Predicate<User> { $0.pets.filter { $0.age < 3 }.count > 0 }))
        cases.append((#line, #Predicate<User> { $0.children.allSatisfy { $0.age < 18 } }))
        return cases
    }()

    static let petCases: [(line: Int, predicate: Predicate<Pet>)] = {
        var cases: [(line: Int, predicate: Predicate<Pet>)] = []
        cases.append((#line, #Predicate<Pet> { ($0.owner?.age ?? 0) > 40 }))
        cases.append((#line, #Predicate<Pet> { $0.owner?.name == "Paul" && $0.age < 5 }))
        cases.append((#line, #Predicate<Pet> { smallAges.contains($0.age) }))
        cases.append((#line, #Predicate<Pet> { $0.age % 2 == 0 }))
        cases.append((#line, #Predicate<Pet> { $0.age / 2 >= 3 }))
        cases.append((#line, #Predicate<Pet> { $0.owner == nil }))
        cases.append((#line, #Predicate<Pet> { $0.age * 3 - 1 > 10 }))
        return cases
    }()

    @Test func foundationSelectsWhatPQSelects() throws {
        let fixture = try Fixture()
        var total = 0
        var nonEmpty = 0
        nonEmpty += try fixture.compare(Self.budgetCases)
        nonEmpty += try fixture.compare(Self.transactionCases)
        nonEmpty += try fixture.compare(Self.movieCases)
        nonEmpty += try fixture.compare(Self.snippetCases)
        nonEmpty += try fixture.compare(Self.recipeCases)
        nonEmpty += try fixture.compare(Self.ingredientCases)
        nonEmpty += try fixture.compare(Self.userCases)
        nonEmpty += try fixture.compare(Self.petCases)
        total =
            Self.budgetCases.count + Self.transactionCases.count + Self.movieCases.count + Self.snippetCases.count
            + Self.recipeCases.count + Self.ingredientCases.count + Self.userCases.count + Self.petCases.count
        #expect(total >= 60)
        #expect(nonEmpty * 10 >= total * 8, "only \(nonEmpty) of \(total) predicates select anything")
    }

    // MARK: - Where pq deliberately differs

    @Test func stringsCompareByUnicodeScalarsNotCanonicalEquivalence() throws {
        var graph = ObjectGraph(schema: ExampleSchemas.combined)
        let composed = graph.insert("Budget", ["name": .string("Caf\u{E9}"), "limit": .double(1)])
        let decomposed = graph.insert("Budget", ["name": .string("Cafe\u{301}"), "limit": .double(1)])
        let fixture = try Fixture(graph: graph)
        let (foundation, pq) = try fixture.select(#Predicate<Budget> { $0.name == "Caf\u{E9}" })
        // Swift's == treats the two spellings of é as equal; pq, like SQLite, does not.
        #expect(foundation == [composed, decomposed])
        #expect(pq == [composed])
    }

    @Test func aForceUnwrapOfNilIsNilRatherThanAnError() throws {
        let fixture = try Fixture(graph: ExampleData.graph())
        let predicate = #Predicate<Transaction> { $0.budget!.name == "Travel" }
        let transactions = fixture.objects.objects(Transaction.self)
        let withoutBudget = try #require(transactions.first { $0.object.budget == nil })
        // Foundation fails on an object whose budget is nil; pq reads the path as nil.
        #expect(throws: (any Error).self) { try predicate.evaluate(withoutBudget.object) }
        let query = try ModelQuery(predicate)
        let compiled = try #require(query.compile(schema: fixture.store.schema, mapping: fixture.store.mapping).compiled)
        let travel = transactions.filter { $0.object.budget?.name == "Travel" }.map(\.id)
        #expect(try fixture.store.fetch(compiled).map(\.id) == travel)
        #expect(!travel.isEmpty)
    }

    @Test func divisionByZeroIsNilRatherThanInfinity() throws {
        let fixture = try Fixture(graph: ExampleData.graph())
        let zero = 0.0
        let (foundation, pq) = try fixture.select(#Predicate<Budget> { $0.limit / zero > 1 })
        // Foundation divides to +infinity, which is > 1; pq's division by zero is nil,
        // and a comparison with nil is false (in SQL and in the evaluator alike).
        #expect(foundation.count == fixture.objects.objects(Budget.self).count)
        #expect(pq.isEmpty)
    }
}
