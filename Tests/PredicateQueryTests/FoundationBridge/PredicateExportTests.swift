// Text queries of every kind, on a model no other test uses, as Foundation
// predicates: Foundation's own `evaluate` over the Swift objects must select
// exactly the objects pq's evaluator (the reference meaning) selects over the
// same data, and `sorted(using:)` must order as `sort by` does. What Foundation
// cannot say the same way is refused, by name.

import Foundation
import PredicateQuery
import Testing

struct PredicateExportTests {
    nonisolated(unsafe) static let library = Library()

    /// The objects pq's meaning selects (evaluator), and those Foundation selects.
    func select(_ text: String, parameters: [String: ParameterValue] = [:]) throws -> (pq: [ObjectID], foundation: [ObjectID]) {
        let query = try ModelQuery<Book>(parsing: text).binding(parameters)
        let schema = Schema(models: [Book.self])
        let checked = try #require(TypeChecker.check(query.syntax, schema: schema, defaultEntity: "Book").query)
        let environment = QueryEnvironment(now: Date(timeIntervalSinceReferenceDate: 700_000_000), timeZone: TimeZone(identifier: "UTC")!)
        let expected = try Evaluator(graph: Self.library.graph, parameters: query.boundValues.merging(query.parameterValues) { $1 }, environment: environment).run(checked)
        let predicate = try query.foundationPredicate(environment: environment)
        var selected = try Self.library.books.filter { try predicate.evaluate($0.book) }
        let descriptors = try query.foundationSortDescriptors()
        if !descriptors.isEmpty {
            let ids = Dictionary(uniqueKeysWithValues: selected.map { (ObjectIdentifier($0.book), $0.id) })
            selected = selected.map(\.book).sorted(using: descriptors).compactMap { book in
                ids[ObjectIdentifier(book)].map { ($0, book) }
            }
        }
        var ids = selected.map(\.id)
        if let offset = query.offset { ids = Array(ids.dropFirst(offset)) }
        if let limit = query.limit { ids = Array(ids.prefix(limit)) }
        return (expected, ids)
    }

    static let accepted: [String] = [
        // comparisons and logic
        "pages > 300", "pages >= 300 && price < 10", "pages < 100 || price > 30", "!(pages > 300)", "price == 12.5",
        "pages != 0", "Book where pages <= 50", "title == 'Dune'", "title != 'Dune'", "title < 'M'", "title >= 'Snow'",
        "published > date('2020-01-01')", "published < now()", "published >= today() - 30d",
        "true", "false", "pages > 300 && true",
        // Int against Double
        "pages > 299.5", "pages >= 299.5", "pages < 300.5", "pages <= 300.5", "pages == 300.0", "pages == 300.5",
        "pages != 300.5", "pages < 1e30", "pages > -1e30", "pages > 1e30",
        // nil
        "rating == nil", "rating != nil", "rating > 2", "rating <= 2", "rating == 3.5", "rating != 3.5", "subtitle == nil",
        "subtitle == ''", "subtitle != 'A Novel'", "isbn == nil", "isbn != nil", "author == nil", "author != nil",
        "author.country == nil", "(rating ?? 0) > 2", "(rating ?? price) > 20", "(subtitle ?? 'none') == 'none'",
        // enums
        "format == .ebook", "format != .ebook", "format in [.ebook, .paperback]", "shelf == .science", "shelf != .science",
        "shelf == nil", "shelf in [.fiction, .history]", "!(shelf == .fiction)",
        // optional to-one paths, two deep
        "author.name == 'Astrid'", "author?.name == 'Astrid'", "author.name != 'Astrid'", "author.born > 1950",
        "author.country.code == 'SE'", "author?.country?.code != 'SE'", "author.country.code == nil",
        "author.name beginswith 'A'", "author.born + 10 > 1980",
        // strings
        "title contains 'o'", "title beginswith 'S'", "title contains ''", "subtitle contains 'Nov'", "!(title contains 'e')",
        // membership, ranges
        "pages in [0, 100, 200]", "title in ['Dune', 'Emma', 'Zen']", "rating in [1.0, 2.5]", "pages between {100, 400}",
        "price between {5, 10}", "rating between {1, 3}", "pages in [author.born, 0]",
        // arithmetic
        "pages * 2 > 900", "pages - 100 < 0", "pages + pages > 1000", "pages - pages == 0", "pages / 3 == 33", "pages % 2 == 0",
        "pages % -1 == 0", "pages / 0 == nil", "-pages < -500", "price * 2 > 50", "price / 2 < 3", "price - rating > 10",
        "-price < -30", "price + 0.5 > 20",
        // to-many
        "reviews.@count > 1", "reviews.@count == 0", "reviews.isEmpty", "!reviews.isEmpty", "any reviews.stars == 5",
        "all reviews.stars >= 3", "none reviews.stars == 1", "reviews.contains { $0.stars > 3 }",
        "reviews.allSatisfy { $0.text != nil }", "reviews.filter { $0.stars > 2 }.count >= 2",
        "reviews.filter { $0.text contains 'great' }.isEmpty", "any reviews.text == 'great'",
        "SUBQUERY(reviews, $r, $r.stars >= 4).@count > 0", "labels.@count > 1", "any labels.name == 'classic'",
        "all labels.name != 'prize'", "labels.isEmpty", "none labels.name == 'new'",
        "author.books.@count > 7", "any author.books.pages > 800", "all author.books.price < 35", "author.books.isEmpty",
        "author.country.authors.@count >= 2", "any reviews.book.author.name == 'Astrid'",
        "reviews.contains { $0.stars > 3 && $0.book?.pages ?? 0 > 100 }",
        // sorting, limit, offset
        "pages > 100 sort by title", "sort by pages desc, title", "sort by rating", "sort by rating desc", "sort by format, title",
        "sort by shelf desc, pages", "sort by published limit 5", "sort by price desc limit 3 offset 2", "sort by subtitle, pages",
    ]

    @Test(arguments: accepted)
    func foundationSelectsWhatPQSelects(_ text: String) throws {
        let (pq, foundation) = try select(text)
        #expect(foundation == pq, "\(text)")
    }

    @Test func theAcceptedQueriesSelectSomethingAndNotEverything() throws {
        var selective = 0
        for text in Self.accepted {
            let count = try select(text).pq.count
            if count > 0 && count < Self.library.books.count { selective += 1 }
        }
        #expect(selective * 10 >= Self.accepted.count * 7, "only \(selective) of \(Self.accepted.count) select some but not all")
    }

    @Test func parametersTakeTheirValuesBeforeConversion() throws {
        let (pq, foundation) = try select(
            "pages > $min && format in $formats && title != $none",
            parameters: ["min": .single(.int(200)), "formats": .list([.string("ebook"), .string("hardcover")]), "none": .single(.null)])
        #expect(foundation == pq)
        #expect(!pq.isEmpty)
    }

    @Test func anUnboundParameterIsNamed() throws {
        let query = try ModelQuery<Book>(parsing: "pages > $min && title == $title").binding(["min": .single(.int(3))])
        let error = try #require(throws: ModelQueryError.self) { try query.foundationPredicate() }
        #expect(error.diagnostics.map(\.message) == ["'$title' cannot become a Foundation predicate: a Foundation predicate holds values, not parameters: give its value first"])
    }

    static let refused: [(text: String, construct: String)] = [
        ("title ==[c] 'dune'", "'==[c]'"),
        ("title contains[cd] 'cafe'", "'contains[cd]'"),
        ("title endswith 'e'", "'endswith'"),
        ("title like 'D*'", "'like'"),
        ("title matches 'D.*'", "'matches'"),
        ("reviews.@sum.stars > 5", "'reviews.@sum'"),
        ("reviews.@avg.stars > 3", "'reviews.@avg'"),
        ("reviews.@max.stars == 5", "'reviews.@max'"),
        ("pages * pages > 10", "'*' of two values read from objects"),
        ("price / rating > 2", "'/' by 'rating'"),
        ("pages & 1 == 0", "'&'"),
        ("pages * 1.5 > 300", "the Int value 'pages' used as a Double"),
        ("(price * 2) == nil", "a nil test of a computed number"),
    ]

    @Test func whatFoundationCannotSayIsRefusedByName() throws {
        for (text, construct) in Self.refused {
            let query = try ModelQuery<Book>(parsing: text)
            let error = try #require(throws: ModelQueryError.self, "\(text)") { try query.foundationPredicate() }
            let message = error.diagnostics.first?.message ?? ""
            #expect(message.hasPrefix("\(construct) cannot become a Foundation predicate: "), "\(text): \(message)")
            // Printed, the error shows the query with a caret under the predicate.
            #expect(error.description.contains("^"), "\(error)")
        }
    }

    @Test func sortKeysFoundationCannotOrderAreRefused() throws {
        for text in ["sort by title[c]", "sort by isbn", "sort by author.name"] {
            let query = try ModelQuery<Book>(parsing: text)
            let error = try #require(throws: ModelQueryError.self, "\(text)") { try query.foundationSortDescriptors() }
            #expect(error.diagnostics.first?.code == .foundationUnsupported, "\(text)")
        }
    }

    @Test func parsingErrorsCarryEveryDiagnosticWithCarets() throws {
        let error = try #require(throws: ModelQueryError.self) { try ModelQuery<Book>(parsing: "pags > 3 && titel == 'x'") }
        #expect(error.diagnostics.count == 2)
        #expect(error.description.contains("<input>:1:1: error: "))
        #expect(error.description.contains("note: did you mean 'pages'?"))
    }

    @Test func aQueryForAnotherEntityIsRefused() throws {
        let error = try #require(throws: ModelQueryError.self) { try ModelQuery<Book>(parsing: "Author where born > 1900") }
        #expect(error.diagnostics.first?.code == .otherEntity)
    }

    @Test func theBuilderAndTheTextGiveTheSamePredicate() throws {
        let built = Book.filter { $0.pages > 300 && $0.author?.name == "Astrid" }.sorted(by: \.title)
        let parsed = try ModelQuery<Book>(parsing: "pages > 300 && author.name == 'Astrid' sort by title")
        let books = Self.library.books.map(\.book)
        let fromBuilder = try books.filter(built.foundationPredicate().evaluate).sorted(using: built.foundationSortDescriptors())
        let fromText = try books.filter(parsed.foundationPredicate().evaluate).sorted(using: parsed.foundationSortDescriptors())
        #expect(fromBuilder.map(ObjectIdentifier.init) == fromText.map(ObjectIdentifier.init))
        #expect(!fromText.isEmpty)
    }

    @Test func aPredicateRoundTripsThroughPQ() throws {
        let minimum = 300
        let original = #Predicate<Book> { $0.pages > minimum && ($0.author?.country?.code ?? "") != "SE" }
        let converted = try ModelQuery(original).foundationPredicate()
        let books = Self.library.books.map(\.book)
        let expected = try books.filter { try original.evaluate($0) }
        #expect(try books.filter { try converted.evaluate($0) }.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
        #expect(!expected.isEmpty)
    }

    @Test func anIntOverflowThrowsInsteadOfTrapping() throws {
        let predicate = try ModelQuery<Book>(parsing: "pages * 9223372036854775807 > 0").foundationPredicate()
        let book = try #require(Self.library.books.first { $0.book.pages > 1 }?.book)
        #expect(throws: (any Error).self) { try predicate.evaluate(book) }
    }

    @Test func aShapeSeenBeforeWithOtherNodeTypesIsBuiltAfresh() throws {
        // One shape, but a parameter bound to nil builds a NilLiteral where 3.5 builds a Value: the closure's
        // remembered node type does not fit, and the predicate is built from scratch, in either order.
        let text = "author.books.contains { $0.rating == $r } || any author.books.subtitle == $s"
        let bindings: [[String: ParameterValue]] = [
            ["r": .single(.double(3.5)), "s": .single(.string("A Novel"))],
            ["r": .single(.null), "s": .single(.null)],
            ["r": .single(.double(3.5)), "s": .single(.null)],
            ["r": .single(.double(3.5)), "s": .single(.string("A Novel"))],
        ]
        for parameters in bindings + bindings.reversed() {
            let result = try select(text, parameters: parameters)
            #expect(result.foundation == result.pq, "\(parameters)")
        }
    }

    @Test func closuresNestedAsDeepAsTheParserAllowsAreBuiltAndMeanWhatPQMeans() throws {
        // Each level is a flatMap and a contains(where:). Built with a dry run per closure and no memory of
        // them, 12 levels were 4^12 bodies and the node budget refused them; a body at depth k is now built
        // k + 1 times. 64 levels is the parser's nesting limit (128).
        for depth in [1, 2, 3, 12, 64] {
            var text = "pages > 1"
            for _ in 0..<depth { text = "author.books.contains { $0.\(text) }" }
            let clock = ContinuousClock()
            let start = clock.now
            let result = try select(text)
            #expect(clock.now - start < .seconds(30), "depth \(depth)")
            #expect(result.foundation == result.pq, "depth \(depth)")
            #expect(!result.pq.isEmpty, "depth \(depth)")
            // Built again, the predicate's shape is known: the same objects.
            #expect(try select(text).foundation == result.pq, "depth \(depth), again")
        }
    }
}
