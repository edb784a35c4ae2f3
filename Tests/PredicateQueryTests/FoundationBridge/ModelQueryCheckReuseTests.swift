// `ModelQuery(parsing:)` keeps the query it checked, so that `foundationPredicate()`
// does not check it again: a query changed after parsing (its predicate, sort keys,
// limit or offset) must convert what it says now, never the text it was parsed from.

import Foundation
import PredicateQuery
import Testing

struct ModelQueryCheckReuseTests {
    /// The titles of the books `query`'s Foundation predicate selects, in the order
    /// of its sort descriptors (or the library's).
    func titles(_ query: ModelQuery<Book>) throws -> [String] {
        let predicate = try query.foundationPredicate()
        var books = try PredicateExportTests.library.books.map(\.book).filter { try predicate.evaluate($0) }
        let descriptors = try query.foundationSortDescriptors()
        if !descriptors.isEmpty { books = books.sorted(using: descriptors) }
        return books.map(\.title)
    }

    @Test func aQueryChangedAfterParsingConvertsWhatItSaysNow() throws {
        let parsed = try ModelQuery<Book>(parsing: "pages > 300")
        let all = try titles(ModelQuery<Book>(parsing: "true"))
        #expect(try titles(parsed) == titles(ModelQuery<Book>(parsing: "pages > 300")))
        #expect(try titles(parsed) != all)

        // filter(_:) sets the predicate.
        let narrowed = parsed.filter { $0.pages < 500 }
        #expect(try titles(narrowed) == titles(ModelQuery<Book>(parsing: "pages > 300 && pages < 500")))
        #expect(try titles(narrowed) != titles(parsed))

        // So does assigning it.
        var replaced = parsed
        replaced.predicate = ModelPredicate { $0.pages < 100 }
        #expect(try titles(replaced) == titles(ModelQuery<Book>(parsing: "pages < 100")))
        #expect(try titles(replaced) != titles(parsed))

        // Sort keys added after parsing become sort descriptors.
        let sorted = parsed.sorted(by: \.title)
        #expect(try sorted.foundationSortDescriptors().count == 1)
        #expect(try titles(sorted) == titles(ModelQuery<Book>(parsing: "pages > 300 sort by title")))
    }

    @Test func aQueryParsedForOneModelConvertsForThatModel() throws {
        // Two model types, each its own checked query and its own schema.
        let books = try ModelQuery<Book>(parsing: "pages > 300").foundationPredicate()
        let reviews = try ModelQuery<Review>(parsing: "stars > 3").foundationPredicate()
        let library = PredicateExportTests.library.books.map(\.book)
        #expect(try library.filter { try books.evaluate($0) }.allSatisfy { $0.pages > 300 })
        let allReviews = library.flatMap(\.reviews)
        let selected = try allReviews.filter { try reviews.evaluate($0) }
        #expect(selected.count == allReviews.filter { $0.stars > 3 }.count)
        #expect(!selected.isEmpty)
    }

    @Test func aParsedQueryThatNamesItsEntityOrNotIsTheSame() throws {
        #expect(try titles(ModelQuery<Book>(parsing: "Book where pages > 300 sort by title"))
            == titles(ModelQuery<Book>(parsing: "pages > 300 sort by title")))
    }
}
