// The typed builder writes the tree the parser writes for the same predicate,
// derives the schema from the model types, and reports what it cannot express.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct BuilderTests {
    private func dump<M: QueryModel>(_ query: ModelQuery<M>) -> String { query.syntax.syntaxDump }

    private func parsed(_ text: String) -> String { Parser.parse(text).query?.syntaxDump ?? "does not parse: \(text)" }

    @Test func theIssuesExamplesMatchTheirText() {
        #expect(dump(Budget.filter { $0.limit > 100 && $0.name.contains("Vac") })
            == parsed("Budget where limit > 100 && name contains 'Vac'"))
        #expect(dump(Transaction.filter { $0.budget?.name == "Travel" }) == parsed("Transaction where budget?.name == 'Travel'"))
        #expect(dump(Budget.filter { $0.transactions.contains { $0.amount > 50 } })
            == parsed("Budget where transactions.contains(where: { $0.amount > 50 })"))
        #expect(dump(Budget.filter { $0.transactions.count > 2 }) == parsed("Budget where transactions.count > 2"))
        #expect(dump(Budget.filter { $0.transactions.isEmpty }) == parsed("Budget where transactions.isEmpty"))
        #expect(dump(Movie.filter { $0.genre == .action }) == parsed("Movie where genre == .action"))
    }

    @Test func theSchemaComesFromTheModelTypes() {
        var expected = ExampleSchemas.combined
        expected.composites = []
        for index in expected.entities.indices where expected.entities[index].name == "Tag" {
            expected.entities[index].attributes.removeAll { $0.name == "colorData" }
        }
        let derived = ExampleSchemas.fromModels
        #expect(Set(derived.entities.map(\.name)) == Set(expected.entities.map(\.name)))
        for entity in expected.entities {
            #expect(derived.entity(named: entity.name) == entity, "\(entity.name)")
        }
        #expect(Set(derived.enums.map(\.name)) == ["Genre", "CodingLanguage"])
        #expect(derived.enums.first { $0.name == "Genre" } == ExampleSchemas.genre)
    }
}
