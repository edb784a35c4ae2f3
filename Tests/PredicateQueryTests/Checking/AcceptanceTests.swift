// The language-core issue's acceptance cases, verbatim.

import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct AcceptanceTests {
    private func check(_ text: String, _ schema: Schema, entity: String? = nil) -> TypeChecker.Result {
        guard let query = parseOrRecord(text) else { return TypeChecker.Result(query: nil, diagnostics: []) }
        return TypeChecker.check(query, schema: schema, defaultEntity: entity)
    }

    @Test func budgetIsInferredForLimitAndName() throws {
        let result = check("limit > 100 && name contains 'Vac'", ExampleSchemas.combined)
        let query = try #require(result.query)
        #expect(query.entity.name == "Budget")
        #expect(
            query.typedDump == """
                entity Budget
                where (and (> (attr limit Double) (double 100.0)) (contains (attr name String) (string "Vac")))
                """)
    }

    @Test(arguments: ["budget.name contains 'Vac'", "budget?.name contains 'Vac'"])
    func optionalToOnePathOnTransaction(_ text: String) throws {
        let query = try #require(check(text, ExampleSchemas.budgets, entity: "Transaction").query)
        guard case .stringTest(.contains, .attribute(let path, .string), .constant(.string("Vac"), _), [])? = query.predicate
        else {
            Issue.record("unexpected tree: \(query.typedDump)")
            return
        }
        #expect(path.steps.map(\.relationship.name) == ["budget"])
        #expect(path.attribute.name == "name")
        #expect(path.isOptional, "a path through the optional 'budget' can be nil")
    }

    @Test func enumCaseResolvesToItsRawValue() throws {
        let query = try #require(check("genre == .kids", ExampleSchemas.movies).query)
        guard case .compare(.equal, .attribute(let path, .enumeration(let genre)), .constant(.int(2), _), _)? = query.predicate
        else {
            Issue.record("unexpected tree: \(query.typedDump)")
            return
        }
        #expect(path.attribute.name == "genre")
        #expect(genre.name == "Genre")
    }

    @Test func computedGenreIsRejectedWithANoteNamingGenreId() throws {
        let text = "genre == .kids"
        let result = check(text, ExampleSchemas.moviesWorkaround)
        #expect(result.query == nil)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .computedProperty)
        #expect(diagnostic.span == SourceSpan(start: 0, end: 5))
        #expect(diagnostic.notes.contains { $0.message.contains("'genreId'") })
        #expect(
            DiagnosticRenderer().render(result.diagnostics, in: text) == """
                <input>:1:1: error: 'genre' is a computed property of 'Movie'; only stored properties can be queried [check.computedProperty]
                genre == .kids
                ^~~~~
                note: 'genre' is computed from the stored property 'genreId'; query 'genreId' instead

                """)
    }

    @Test func transientTitleHasItsOwnError() throws {
        let result = check("title == 'x'", ExampleSchemas.snippetBox, entity: "Snippet")
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.code == .transientProperty)
        #expect(diagnostic.code != .computedProperty)
        #expect(diagnostic.span == SourceSpan(start: 0, end: 5))
    }

    @Test func renamedAttributeUsesItsOriginalName() throws {
        let query = try #require(check("newName == 'Work'", ExampleSchemas.snippetBox).query)
        guard case .compare(_, .attribute(let path, _), _, _)? = query.predicate else {
            Issue.record("unexpected tree: \(query.typedDump)")
            return
        }
        #expect(path.attribute.name == "newName")
        #expect(path.attribute.storedName == "name")
    }

    @Test func ageWithSortKeysOnUser() throws {
        let query = try #require(check("age < 18 sort by name, age desc", ExampleSchemas.users, entity: "User").query)
        #expect(
            query.typedDump == """
                entity User
                where (< (attr age Int) (int 18))
                sort (attr name String) asc
                sort (attr age Int) desc
                """)
    }
}
