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

    /// The one finding at the site `body`, which must be a warning with `code` at `flagged`.
    @discardableResult
    func onlyWarning(_ code: DiagnosticCode, in body: String, at flagged: String) -> Diagnostic? {
        let found = diagnostics(body)
        #expect(found.map(\.diagnostic.code) == [code], "\(body): \(found.map(\.diagnostic.message))")
        #expect(found.map(\.text) == [flagged], "\(body)")
        #expect(found.allSatisfy { $0.diagnostic.severity == .warning })
        return found.first?.diagnostic
    }

    @Test func isEmptyComparedWithFalseOnAToManyIsAWarningAtTheComparison() {
        for (body, flagged, relationship) in [
            ("$0.cast.isEmpty == false", "$0.cast.isEmpty == false", "cast"),
            ("false == $0.cast.isEmpty", "false == $0.cast.isEmpty", "cast"),
            ("$0.name == \"Alien\" && $0.cast.isEmpty == false", "$0.cast.isEmpty == false", "cast"),
            ("$0.cast.contains { $0.movies.isEmpty == false }", "$0.movies.isEmpty == false", "movies"),
        ] {
            let warning = onlyWarning(.swiftToManyIsEmptyComparedWithFalse, in: body, at: flagged)
            #expect(warning?.message.contains("'\(relationship)'") == true, "\(body)")
            #expect(warning?.notes.map(\.message).contains { $0.contains("'!' before the path") } == true)
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
            onlyWarning(.swiftOptionalToManyNilTest, in: body, at: flagged)
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
