// Display paths (`budget.name`): checked from an entity through to-one
// relationships to an attribute; anything else is an error that says why.

import PredicateQuery
import PredicateQueryExamples
import Testing

struct DisplayPathTests {
    let schema = ExampleSchemas.budgets

    private func check(_ text: String) -> Result<AttributePath, Diagnostic> {
        guard let transaction = schema.entity(named: "Transaction") else {
            return .failure(.error(.unknownEntity, "no Transaction", at: .point(0)))
        }
        return TypeChecker.checkDisplayPath(text, of: transaction, schema: schema)
    }

    @Test func toOnePathsReachAnAttribute() throws {
        let path = try check("budget?.limit").get()
        #expect(path.dottedName == "budget.limit")
        #expect(path.entity == "Budget" && path.attribute.name == "limit")
        #expect(path.steps.map(\.relationship.name) == ["budget"])
        #expect(try check("note").get().steps.isEmpty)
    }

    @Test func otherPathsAreErrors() {
        let cases: [(String, String)] = [
            ("budget.nme", "did you mean 'name'"),
            ("budget", "is a relationship"),
            ("budget.transactions.note", "to-many relationship 'transactions'"),
            ("budget.name desc", "is not a property path"),
        ]
        for (text, expected) in cases {
            guard case .failure(let diagnostic) = check(text) else {
                Issue.record("\(text) checked")
                continue
            }
            let message = ([diagnostic.message] + diagnostic.notes.map(\.message)).joined(separator: "; ")
            #expect(message.contains(expected), "\(text): \(message)")
        }
    }
}
