// One predicate, three front ends, one tree: the same predicate written in the
// text language, with the typed builder and with Foundation's #Predicate (and
// SortDescriptor) gives the same syntax tree, and so the same SQL.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

/// A predicate written three ways.
struct FrontEndTriple: Sendable, CustomTestStringConvertible {
    var text: String
    var builder: Query
    var bridged: Result<Query, any Error>
    var line: Int

    var testDescription: String { text }

    init<M: QueryModel>(
        _ text: String, _ builder: ModelQuery<M>, _ bridged: () throws -> ModelQuery<M>,
        line: Int = #line
    ) {
        self.text = text
        self.builder = builder.syntax
        self.bridged = Result { try bridged().syntax }
        self.line = line
    }
}

// Captured values: #Predicate captures values, not expressions such as `Genre.kids`.
private let action = Genre.action
private let kids = Genre.kids
private let horror = Genre.horror
private let swift = CodingLanguage.swift
private let python = CodingLanguage.python
private let rentOrTravel = ["Rent", "Travel"]
private let actionOrHorror = [Genre.action, Genre.horror]
private let smallAges = [1, 2, 3]
private let march10 = Date(timeIntervalSinceReferenceDate: 731_721_600)  // 2024-03-10T00:00:00Z
private let april1 = Date(timeIntervalSinceReferenceDate: 733_622_400)  // 2024-04-01T00:00:00Z
private let may1 = Date(timeIntervalSinceReferenceDate: 736_214_400)  // 2024-05-01T00:00:00Z

struct FrontEndTripleTests {
    static let triples: [FrontEndTriple] = budgetTriples + transactionTriples + movieTriples + otherTriples + sortTriples

    static let budgetTriples: [FrontEndTriple] = {
        // One statement each, here and below: as one array literal, these 24 took
        // the type checker 2.5 s, and the lists below up to 0.7 s each.
        var triples: [FrontEndTriple] = []
        triples.append(FrontEndTriple("Budget where limit > 100", Budget.filter { $0.limit > 100 }) {
            try ModelQuery(#Predicate<Budget> { $0.limit > 100 })
        })
        triples.append(FrontEndTriple(
            "Budget where limit > 100 && name contains 'Vac'", Budget.filter { $0.limit > 100 && $0.name.contains("Vac") }
        ) { try ModelQuery(#Predicate<Budget> { $0.limit > 100 && $0.name.contains("Vac") }) })
        triples.append(FrontEndTriple("Budget where name == 'Rent' || name == 'Travel'", Budget.filter { $0.name == "Rent" || $0.name == "Travel" }) {
            try ModelQuery(#Predicate<Budget> { $0.name == "Rent" || $0.name == "Travel" })
        })
        triples.append(FrontEndTriple("Budget where !(limit > 1000)", Budget.filter { !($0.limit > 1000) }) {
            try ModelQuery(#Predicate<Budget> { !($0.limit > 1000) })
        })
        triples.append(FrontEndTriple("Budget where limit >= 80.5", Budget.filter { $0.limit >= 80.5 }) {
            try ModelQuery(#Predicate<Budget> { $0.limit >= 80.5 })
        })
        triples.append(FrontEndTriple("Budget where limit * 2 > 1000", Budget.filter { $0.limit * 2 > 1000 }) {
            try ModelQuery(#Predicate<Budget> { $0.limit * 2 > 1000 })
        })
        triples.append(FrontEndTriple("Budget where limit - 100 < 0", Budget.filter { $0.limit - 100 < 0 }) {
            try ModelQuery(#Predicate<Budget> { $0.limit - 100 < 0 })
        })
        triples.append(FrontEndTriple("Budget where limit / 2 >= 100", Budget.filter { $0.limit / 2 >= 100 }) {
            try ModelQuery(#Predicate<Budget> { $0.limit / 2 >= 100 })
        })
        triples.append(FrontEndTriple("Budget where -limit < -100", Budget.filter { -$0.limit < -100 }) {
            try ModelQuery(#Predicate<Budget> { -$0.limit < -100 })
        })
        triples.append(FrontEndTriple("Budget where name in ['Rent', 'Travel']", Budget.filter { ["Rent", "Travel"].contains($0.name) }) {
            try ModelQuery(#Predicate<Budget> { rentOrTravel.contains($0.name) })
        })
        triples.append(FrontEndTriple("Budget where limit in 100...1000", Budget.filter { (100.0...1000.0).contains($0.limit) }) {
            try ModelQuery(#Predicate<Budget> { (100.0...1000.0).contains($0.limit) })
        })
        triples.append(FrontEndTriple("Budget where limit in 100..<1000", Budget.filter { (100.0..<1000.0).contains($0.limit) }) {
            try ModelQuery(#Predicate<Budget> { (100.0..<1000.0).contains($0.limit) })
        })
        triples.append(FrontEndTriple(
            "Budget where transactions.contains(where: { $0.amount > 50 })",
            Budget.filter { $0.transactions.contains { $0.amount > 50 } }
        ) { try ModelQuery(#Predicate<Budget> { $0.transactions.contains { $0.amount > 50 } }) })
        triples.append(FrontEndTriple(
            "Budget where transactions.allSatisfy({ $0.hasReceipt })",
            Budget.filter { $0.transactions.allSatisfy { $0.hasReceipt.isTrue } }
        ) { try ModelQuery(#Predicate<Budget> { $0.transactions.allSatisfy { $0.hasReceipt } }) })
        triples.append(FrontEndTriple("Budget where transactions.count > 2", Budget.filter { $0.transactions.count > 2 }) {
            try ModelQuery(#Predicate<Budget> { $0.transactions.count > 2 })
        })
        triples.append(FrontEndTriple("Budget where transactions.isEmpty", Budget.filter { $0.transactions.isEmpty }) {
            try ModelQuery(#Predicate<Budget> { $0.transactions.isEmpty })
        })
        triples.append(FrontEndTriple("Budget where !transactions.isEmpty", Budget.filter { !$0.transactions.isEmpty }) {
            try ModelQuery(#Predicate<Budget> { !$0.transactions.isEmpty })
        })
        triples.append(FrontEndTriple(
            "Budget where transactions.filter({ $0.amount > 100 }).count >= 1",
            Budget.filter { $0.transactions.filter { $0.amount > 100 }.count >= 1 }
        ) { try ModelQuery(#Predicate<Budget> { $0.transactions.filter { $0.amount > 100 }.count >= 1 }) })
        triples.append(FrontEndTriple(
            "Budget where transactions.contains(where: { $0.amount > 50 && $0.hasReceipt })",
            Budget.filter { $0.transactions.contains { $0.amount > 50 && $0.hasReceipt.isTrue } }
        ) { try ModelQuery(#Predicate<Budget> { $0.transactions.contains { $0.amount > 50 && $0.hasReceipt } }) })
        triples.append(FrontEndTriple("Budget where name.starts(with: 'Vac')", Budget.filter { $0.name.starts(with: "Vac") }) {
            try ModelQuery(#Predicate<Budget> { $0.name.starts(with: "Vac") })
        })
        triples.append(FrontEndTriple("Budget where name contains 'Rent'", Budget.filter { $0.name.contains("Rent") }) {
            try ModelQuery(#Predicate<Budget> { $0.name.contains("Rent") })
        })
        triples.append(FrontEndTriple(
            "Budget where limit > 100 && limit < 1000 && name != 'Rent'",
            Budget.filter { $0.limit > 100 && $0.limit < 1000 && $0.name != "Rent" }
        ) { try ModelQuery(#Predicate<Budget> { $0.limit > 100 && $0.limit < 1000 && $0.name != "Rent" }) })
        triples.append(FrontEndTriple(
            "Budget where name == 'Rent' || limit > 1000 && !transactions.isEmpty",
            Budget.filter { $0.name == "Rent" || ($0.limit > 1000 && !$0.transactions.isEmpty) }
        ) { try ModelQuery(#Predicate<Budget> { $0.name == "Rent" || ($0.limit > 1000 && !$0.transactions.isEmpty) }) })
        return triples
    }()

    static let transactionTriples: [FrontEndTriple] = {
        var triples: [FrontEndTriple] = []
        triples.append(FrontEndTriple("Transaction where budget?.name == 'Travel'", Transaction.filter { $0.budget?.name == "Travel" }) {
            try ModelQuery(#Predicate<Transaction> { $0.budget?.name == "Travel" })
        })
        triples.append(FrontEndTriple("Transaction where budget == nil", Transaction.filter { $0.budget == nil }) {
            try ModelQuery(#Predicate<Transaction> { $0.budget == nil })
        })
        triples.append(FrontEndTriple("Transaction where budget != nil", Transaction.filter { $0.budget != nil }) {
            try ModelQuery(#Predicate<Transaction> { $0.budget != nil })
        })
        triples.append(FrontEndTriple("Transaction where budget?.limit ?? 0 > 1000", Transaction.filter { ($0.budget?.limit ?? 0) > 1000 }) {
            try ModelQuery(#Predicate<Transaction> { ($0.budget?.limit ?? 0) > 1000 })
        })
        triples.append(FrontEndTriple(
            "Transaction where budget?.name ?? 'none' == 'none'", Transaction.filter { ($0.budget?.name ?? "none") == "none" }
        ) { try ModelQuery(#Predicate<Transaction> { ($0.budget?.name ?? "none") == "none" }) })
        triples.append(FrontEndTriple("Transaction where amount > 50 && hasReceipt", Transaction.filter { $0.amount > 50 && $0.hasReceipt.isTrue }) {
            try ModelQuery(#Predicate<Transaction> { $0.amount > 50 && $0.hasReceipt })
        })
        triples.append(FrontEndTriple("Transaction where hasReceipt == false", Transaction.filter { $0.hasReceipt == false }) {
            try ModelQuery(#Predicate<Transaction> { $0.hasReceipt == false })
        })
        triples.append(FrontEndTriple("Transaction where date > date('2024-04-01T00:00:00Z')", Transaction.filter { $0.date > april1 }) {
            try ModelQuery(#Predicate<Transaction> { $0.date > april1 })
        })
        triples.append(FrontEndTriple(
            "Transaction where date >= date('2024-03-10T00:00:00Z') && date < date('2024-04-01T00:00:00Z')",
            Transaction.filter { $0.date >= march10 && $0.date < april1 }
        ) { try ModelQuery(#Predicate<Transaction> { $0.date >= march10 && $0.date < april1 }) })
        triples.append(FrontEndTriple("Transaction where note.starts(with: 'May')", Transaction.filter { $0.note.starts(with: "May") }) {
            try ModelQuery(#Predicate<Transaction> { $0.note.starts(with: "May") })
        })
        triples.append(FrontEndTriple(
            "Transaction where budget?.limit ?? 0 >= amount * 2", Transaction.filter { ($0.budget?.limit ?? 0) >= $0.amount * 2 }
        ) { try ModelQuery(#Predicate<Transaction> { ($0.budget?.limit ?? 0) >= $0.amount * 2 }) })
        triples.append(FrontEndTriple("Transaction where !(amount > 100) || hasReceipt", Transaction.filter { !($0.amount > 100) || $0.hasReceipt.isTrue }) {
            try ModelQuery(#Predicate<Transaction> { !($0.amount > 100) || $0.hasReceipt })
        })
        triples.append(FrontEndTriple("Transaction where amount in 20...100", Transaction.filter { (20.0...100.0).contains($0.amount) }) {
            try ModelQuery(#Predicate<Transaction> { (20.0...100.0).contains($0.amount) })
        })
        triples.append(FrontEndTriple("Transaction where budget?.limit == 1500", Transaction.filter { $0.budget?.limit == 1500 }) {
            try ModelQuery(#Predicate<Transaction> { $0.budget?.limit == 1500 })
        })
        triples.append(FrontEndTriple("Transaction where amount + 10 > budget?.limit ?? 0", Transaction.filter { $0.amount + 10 > ($0.budget?.limit ?? 0) }) {
            try ModelQuery(#Predicate<Transaction> { $0.amount + 10 > ($0.budget?.limit ?? 0) })
        })
        return triples
    }()

    static let movieTriples: [FrontEndTriple] = {
        var triples: [FrontEndTriple] = []
        triples.append(FrontEndTriple("Movie where genre == .action", Movie.filter { $0.genre == .action }) {
            try ModelQuery(#Predicate<Movie> { $0.genre == action })
        })
        triples.append(FrontEndTriple("Movie where genre != .kids", Movie.filter { $0.genre != .kids }) {
            try ModelQuery(#Predicate<Movie> { $0.genre != kids })
        })
        triples.append(FrontEndTriple("Movie where genre == .horror || genre == .kids", Movie.filter { $0.genre == .horror || $0.genre == .kids }) {
            try ModelQuery(#Predicate<Movie> { $0.genre == horror || $0.genre == kids })
        })
        triples.append(FrontEndTriple("Movie where genre in [.action, .horror]", Movie.filter { [Genre.action, .horror].contains($0.genre) }) {
            try ModelQuery(#Predicate<Movie> { actionOrHorror.contains($0.genre) })
        })
        triples.append(FrontEndTriple(
            "Movie where name.starts(with: 'A') && genre == .horror", Movie.filter { $0.name.starts(with: "A") && $0.genre == .horror }
        ) { try ModelQuery(#Predicate<Movie> { $0.name.starts(with: "A") && $0.genre == horror }) })
        triples.append(FrontEndTriple("Movie where name == 'Alien' || genre == .kids && name != 'Up'", Movie.filter { $0.name == "Alien" || ($0.genre == .kids && $0.name != "Up") }) {
            try ModelQuery(#Predicate<Movie> { $0.name == "Alien" || ($0.genre == kids && $0.name != "Up") })
        })
        return triples
    }()

    static let otherTriples: [FrontEndTriple] = {
        var triples: [FrontEndTriple] = []
        triples.append(FrontEndTriple("Snippet where language == .swift", Snippet.filter { $0.language == .swift }) {
            try ModelQuery(#Predicate<Snippet> { $0.language == swift })
        })
        triples.append(FrontEndTriple("Snippet where language == nil", Snippet.filter { $0.language == nil }) {
            try ModelQuery(#Predicate<Snippet> { $0.language == nil })
        })
        triples.append(FrontEndTriple("Snippet where isFavorite && language != .python", Snippet.filter { $0.isFavorite.isTrue && $0.language != .python }) {
            try ModelQuery(#Predicate<Snippet> { $0.isFavorite && $0.language != python })
        })
        triples.append(FrontEndTriple("Snippet where folder?.newName == 'Work'", Snippet.filter { $0.folder?.newName == "Work" }) {
            try ModelQuery(#Predicate<Snippet> { $0.folder?.newName == "Work" })
        })
        triples.append(FrontEndTriple("Snippet where notes contains 'TODO' || code contains 'print'", Snippet.filter { $0.notes.contains("TODO") || $0.code.contains("print") }) {
            try ModelQuery(#Predicate<Snippet> { $0.notes.contains("TODO") || $0.code.contains("print") })
        })
        triples.append(FrontEndTriple("Snippet where creationDate < date('2024-05-01T00:00:00Z')", Snippet.filter { $0.creationDate < may1 }) {
            try ModelQuery(#Predicate<Snippet> { $0.creationDate < may1 })
        })
        triples.append(FrontEndTriple("Snippet where folder == nil", Snippet.filter { $0.folder == nil }) {
            try ModelQuery(#Predicate<Snippet> { $0.folder == nil })
        })
        triples.append(FrontEndTriple("Snippet where language ?? .swift == .swift", Snippet.filter { ($0.language ?? .swift) == .swift }) {
            try ModelQuery(#Predicate<Snippet> { ($0.language ?? swift) == swift })
        })
        triples.append(FrontEndTriple(
            "Recipe where ingredients.contains(where: { $0.name == 'Flour' })",
            Recipe.filter { $0.ingredients.contains { $0.name == "Flour" } }
        ) { try ModelQuery(#Predicate<Recipe> { $0.ingredients.contains { $0.name == "Flour" } }) })
        triples.append(FrontEndTriple("Recipe where ingredients.count >= 3", Recipe.filter { $0.ingredients.count >= 3 }) {
            try ModelQuery(#Predicate<Recipe> { $0.ingredients.count >= 3 })
        })
        triples.append(FrontEndTriple(
            "Recipe where ingredients.allSatisfy({ $0.name != 'Salt' })",
            Recipe.filter { $0.ingredients.allSatisfy { $0.name != "Salt" } }
        ) { try ModelQuery(#Predicate<Recipe> { $0.ingredients.allSatisfy { $0.name != "Salt" } }) })
        triples.append(FrontEndTriple("Ingredient where recipes.isEmpty || name == 'Egg'", Ingredient.filter { $0.recipes.isEmpty || $0.name == "Egg" }) {
            try ModelQuery(#Predicate<Ingredient> { $0.recipes.isEmpty || $0.name == "Egg" })
        })
        triples.append(FrontEndTriple("User where age >= 18 && pets.isEmpty", User.filter { $0.age >= 18 && $0.pets.isEmpty }) {
            try ModelQuery(#Predicate<User> { $0.age >= 18 && $0.pets.isEmpty })
        })
        triples.append(FrontEndTriple("User where pets.contains(where: { $0.age > 5 })", User.filter { $0.pets.contains { $0.age > 5 } }) {
            try ModelQuery(#Predicate<User> { $0.pets.contains { $0.age > 5 } })
        })
        triples.append(FrontEndTriple("User where children.contains(where: { $0.age < 10 })", User.filter { $0.children.contains { $0.age < 10 } }) {
            try ModelQuery(#Predicate<User> { $0.children.contains { $0.age < 10 } })
        })
        triples.append(FrontEndTriple("Pet where owner?.age ?? 0 > 40", Pet.filter { ($0.owner?.age ?? 0) > 40 }) {
            try ModelQuery(#Predicate<Pet> { ($0.owner?.age ?? 0) > 40 })
        })
        triples.append(FrontEndTriple("Pet where owner?.name == 'Ada' && age < 5", Pet.filter { $0.owner?.name == "Ada" && $0.age < 5 }) {
            try ModelQuery(#Predicate<Pet> { $0.owner?.name == "Ada" && $0.age < 5 })
        })
        triples.append(FrontEndTriple("Pet where age in [1, 2, 3]", Pet.filter { [1, 2, 3].contains($0.age) }) {
            try ModelQuery(#Predicate<Pet> { smallAges.contains($0.age) })
        })
        triples.append(FrontEndTriple("User where pets.filter({ $0.age < 3 }).count > 0", User.filter { $0.pets.filter { $0.age < 3 }.count > 0 }) {
            try ModelQuery(#Predicate<User> { $0.pets.filter { $0.age < 3 }.count > 0 })
        })
        triples.append(FrontEndTriple(
            "User where children.contains(where: { $0.pets.contains(where: { e2 in e2.age > 2 }) })",
            User.filter { $0.children.contains { $0.pets.contains { $0.age > 2 } } }
        ) { try ModelQuery(#Predicate<User> { $0.children.contains { $0.pets.contains { $0.age > 2 } } }) })
        triples.append(FrontEndTriple("Pet where age % 2 == 0", Pet.filter { $0.age % 2 == 0 }) {
            try ModelQuery(#Predicate<Pet> { $0.age % 2 == 0 })
        })
        triples.append(FrontEndTriple("Pet where age / 2 >= 3", Pet.filter { $0.age / 2 >= 3 }) {
            try ModelQuery(#Predicate<Pet> { $0.age / 2 >= 3 })
        })
        triples.append(FrontEndTriple("User where age in 30..<40", User.filter { (30..<40).contains($0.age) }) {
            try ModelQuery(#Predicate<User> { (30..<40).contains($0.age) })
        })
        return triples
    }()

    static let sortTriples: [FrontEndTriple] = {
        var triples: [FrontEndTriple] = []
        triples.append(FrontEndTriple("Budget where limit > 100 sort by name", Budget.filter { $0.limit > 100 }.sorted(by: \.name)) {
            try ModelQuery(#Predicate<Budget> { $0.limit > 100 }, sortBy: [SortDescriptor(\Budget.name)])
        })
        triples.append(FrontEndTriple(
            "Transaction sort by budget?.name desc, amount",
            Transaction.all.sorted(by: \.budget?.name, .reverse).sorted(by: \.amount)
        ) {
            try ModelQuery(
                nil, sortBy: [SortDescriptor(\Transaction.budget?.name, order: .reverse), SortDescriptor(\Transaction.amount)])
        })
        triples.append(FrontEndTriple("Budget sort by limit desc limit 3", Budget.all.sorted(by: \.limit, .reverse).limit(3)) {
            try ModelQuery(nil, sortBy: [SortDescriptor(\Budget.limit, order: .reverse)], limit: 3)
        })
        triples.append(FrontEndTriple(
            "Pet where age > 1 sort by owner?.name, name limit 5 offset 5",
            Pet.filter { $0.age > 1 }.sorted(by: \.owner?.name).sorted(by: \.name).limit(5).offset(5)
        ) {
            try ModelQuery(
                #Predicate<Pet> { $0.age > 1 }, sortBy: [SortDescriptor(\Pet.owner?.name), SortDescriptor(\Pet.name)], limit: 5,
                offset: 5)
        })
        return triples
    }()

    static let schema = ExampleSchemas.combined
    static let mapping = StoreMapping.make(for: schema, layout: .coreData)

    @Test func thereAreAtLeastSixtyTriples() {
        #expect(Self.triples.count >= 60)
    }

    @Test(arguments: triples)
    func oneTreeAndOneSQLForAllThreeFrontEnds(_ triple: FrontEndTriple) throws {
        let parsed = try #require(Parser.parse(triple.text).query, "line \(triple.line): the text does not parse")
        let bridged = try triple.bridged.get()
        #expect(triple.builder.syntaxDump == parsed.syntaxDump, "line \(triple.line): builder")
        #expect(bridged.syntaxDump == parsed.syntaxDump, "line \(triple.line): #Predicate")
        let sql = [parsed, triple.builder, bridged].map {
            QueryCompiler.compile($0, schema: Self.schema, mapping: Self.mapping).compiled?.sql
        }
        #expect(sql[0] != nil, "line \(triple.line): does not compile")
        #expect(sql[1] == sql[0] && sql[2] == sql[0], "line \(triple.line)")
    }
}
