// Emptiness tests of to-many relationships that SwiftData was reported to fail on:
// `isEmpty == false` (a crash, where `!isEmpty` works) and an optional to-many
// compared with nil ("to-many key not allowed here"). Warnings that name their
// evidence, at the comparison; the nil test's warning replaces pq's own error for
// a to-many without a quantifier, while the site's other errors stay.

import PredicateQuery
import PredicateQueryModels
import Testing

struct ToManyEmptinessRuleTests {
    static let models = SwiftModelSource.File(
        path: "Model/Movie.swift",
        text: """
            import SwiftData

            @Model final class Movie {
                var name: String
                var cast: [Actor] = []
                var assets: [Asset]?
                var director: Director?
                init(name: String) { self.name = name }
            }

            @Model final class Actor {
                var name: String
                var movies: [Movie] = []
                init(name: String) { self.name = name }
            }

            @Model final class Asset {
                var name: String
                init(name: String) { self.name = name }
            }

            @Model final class Director {
                var name: String
                var movies: [Movie]?
                init(name: String) { self.name = name }
            }
            """)

    /// Every diagnostic at the one site `#Predicate<Movie> { body }`, with the text each points at.
    func diagnostics(_ body: String) -> [(diagnostic: Diagnostic, text: String)] {
        LintedSite.findings("let p = #Predicate<Movie> { \(body) }", at: "Views/Movies.swift", models: Self.models)
    }

    @Test func isEmptyComparedWithFalseOnAToManyIsAWarningAtTheComparison() {
        for (body, flagged) in [
            ("$0.cast.isEmpty == false", "$0.cast.isEmpty == false"),
            ("false == $0.cast.isEmpty", "false == $0.cast.isEmpty"),
            ("$0.name == \"Alien\" && $0.cast.isEmpty == false", "$0.cast.isEmpty == false"),
            ("$0.cast.contains { $0.movies.isEmpty == false }", "$0.movies.isEmpty == false"),
        ] {
            let found = diagnostics(body)
            #expect(found.map(\.diagnostic.code) == [.swiftToManyIsEmptyComparedWithFalse], "\(body)")
            #expect(found.map(\.text) == [flagged], "\(body)")
            #expect(found.allSatisfy { $0.diagnostic.severity == .warning })
            #expect(found.first?.diagnostic.message.contains("'\(flagged.contains("movies") ? "movies" : "cast")'") == true)
            #expect(found.first?.diagnostic.notes.map(\.message).contains { $0.contains("'!' before the path") } == true)
        }
    }

    @Test(arguments: [
        "!$0.cast.isEmpty", "$0.cast.isEmpty", "$0.cast.isEmpty == true", "$0.name.isEmpty == false",
        "$0.cast.isEmpty != true", "$0.assets?.isEmpty == false", "$0.assets?.isEmpty == true",
    ])
    func whatWasNotReportedFailingIsNotFlagged(_ body: String) {
        #expect(diagnostics(body).isEmpty, "\(diagnostics(body).map(\.diagnostic.message))")
    }

    @Test func anOptionalToManyComparedWithNilIsAWarningInsteadOfPqsError() {
        for (body, flagged) in [
            ("$0.assets == nil", "$0.assets == nil"),
            ("$0.assets != nil", "$0.assets != nil"),
            ("nil == $0.assets", "nil == $0.assets"),
            ("$0.director?.movies == nil", "$0.director?.movies == nil"),
        ] {
            let found = diagnostics(body)
            #expect(found.map(\.diagnostic.code) == [.swiftOptionalToManyNilTest], "\(body): \(found.map(\.diagnostic.message))")
            #expect(found.map(\.text) == [flagged], "\(body)")
            #expect(found.allSatisfy { $0.diagnostic.severity == .warning })
        }
    }

    @Test func theSitesOtherErrorsStay() {
        let found = diagnostics("$0.assets == nil && $0.nmae == \"Alien\"")
        #expect(found.map(\.diagnostic.code).contains(.swiftOptionalToManyNilTest))
        #expect(found.contains { $0.diagnostic.severity == .error && $0.text.contains("nmae") })
    }

    @Test func aNonOptionalToManyOrAToOneComparedWithNilIsNotThisRule() {
        #expect(!diagnostics("$0.cast == nil").map(\.diagnostic.code).contains(.swiftOptionalToManyNilTest))
        #expect(!diagnostics("$0.director == nil").map(\.diagnostic.code).contains(.swiftOptionalToManyNilTest))
    }
}
