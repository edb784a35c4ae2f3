// `p.evaluate(x)` inside a `#Predicate` is followed into `p` when `p` is declared
// where the site can see it (issue 24, item 3): the site is checked as the one
// predicate SwiftData makes of it, so a rule about the combination fires, and the
// site has its SQL. A predicate pq cannot see (passed in, declared elsewhere) is
// still accepted unread, and what the evaluated predicate itself gets wrong is
// reported once, at its own site.

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftAppLintEvaluateTests {
    static let models = SwiftModelSource.File(
        path: "Models.swift",
        text: """
            import SwiftData
            @Model final class Trip {
                var name: String = ""
                var days: Int = 0
                var destination: Place?
                var shout: String { name.uppercased() }
                init() {}
            }
            @Model final class Place {
                var city: String = ""
                init() {}
            }
            """)

    static func report(_ source: String) -> SwiftAppLint.Report {
        SwiftAppLint.lint([models, SwiftModelSource.File(path: "Use.swift", text: source)], sql: true)
    }

    /// The first site at or after `marker` in `source`.
    static func site(_ report: SwiftAppLint.Report, after marker: String, in source: String) -> SwiftAppLint.Site? {
        guard let range = source.range(of: marker) else { return nil }
        let offset = source.utf8.distance(from: source.startIndex, to: range.lowerBound)
        return report.sites.filter { $0.file == "Use.swift" && $0.span.start >= offset }.min { $0.span.start < $1.span.start }
    }

    @Test func aRelationshipNilTestInAnEvaluatedPredicateIsSeenInTheCompoundThatEvaluatesIt() {
        let source = """
            func trips(named name: String) -> FetchDescriptor<Trip> {
                let unplanned = #Predicate<Trip> { $0.days > 3 && $0.destination == nil }
                let both = #Predicate<Trip> { unplanned.evaluate($0) || $0.name == name }
                return FetchDescriptor(predicate: both)
            }
            """
        let report = Self.report(source)
        let outer = Self.site(report, after: "let both", in: source)
        let nilTests = outer?.diagnostics.filter { $0.code == .swiftRelationshipNilTest } ?? []
        #expect(nilTests.count == 1, "\(outer?.diagnostics.map(\.message) ?? [])")
        // It points at the test itself, in the evaluated predicate.
        if let test = nilTests.first {
            let text = String(decoding: Array(source.utf8)[test.span.start..<test.span.end], as: UTF8.self)
            #expect(text == "$0.destination == nil")
        }
        // The evaluated predicate alone leads with a test of a stored value: nothing there. In the `||` that
        // evaluates it, its nil test is flagged.
        let inner = Self.site(report, after: "let unplanned", in: source)
        #expect(inner?.diagnostics.isEmpty == true, "\(inner?.diagnostics.map(\.message) ?? [])")
        // Followed, the site is one predicate with its SQL.
        #expect(outer?.sql?.contains("IS NULL") == true, "\(outer?.sql ?? "no SQL")")
    }

    @Test func aNamedParameterAndAnExpressionAreFollowedToo() {
        let source = """
            struct Filters {
                static let long = #Expression<Trip, Bool> { trip in trip.days > 7 }
                func query() -> Predicate<Trip> {
                    #Predicate<Trip> { trip in long.evaluate(trip) || trip.destination != nil }
                }
            }
            """
        let report = Self.report(source)
        let outer = Self.site(report, after: "#Predicate<Trip> { trip in long", in: source)
        #expect(outer?.diagnostics.map(\.code) == [.swiftRelationshipNilTest], "\(outer?.diagnostics.map(\.message) ?? [])")
        #expect(outer?.sql?.contains("> ?") == true, "\(outer?.sql ?? "no SQL")")
    }

    @Test func aPredicatePqCannotSeeIsAcceptedUnread() {
        for source in [
            // Passed in.
            "func f(unplanned: Predicate<Trip>) { let p = #Predicate<Trip> { unplanned.evaluate($0) && $0.name == \"a\" } }",
            // Declared in another function's body.
            """
            func g() { let unplanned = #Predicate<Trip> { $0.destination == nil } }
            func f() { let p = #Predicate<Trip> { unplanned.evaluate($0) && $0.name == "a" } }
            """,
        ] {
            let report = Self.report(source)
            let outer = Self.site(report, after: "let p", in: source)
            #expect(outer?.diagnostics.isEmpty == true, "\(outer?.diagnostics.map(\.message) ?? [])")
            #expect(outer?.sql == nil, "an unread predicate has no SQL: \(outer?.sql ?? "")")
        }
    }

    @Test func anEvaluatedPredicatesOwnErrorIsReportedOnce() {
        let source = """
            func f() {
                let loud = #Predicate<Trip> { $0.shout == "ROME" }
                let p = #Predicate<Trip> { loud.evaluate($0) && $0.days > 2 }
            }
            """
        let run = LintRun([Self.models, SwiftModelSource.File(path: "Use.swift", text: source)])
        let findings = run.findings.filter { $0.file == "Use.swift" }
        #expect(findings.map(\.line) == [2], "\(findings.map { "\($0.rule)@\($0.line): \($0.message)" })")
        #expect(findings.first?.severity == .error)
    }

    @Test func aPredicateThatEvaluatesItselfIsNotFollowedForever() {
        let source = """
            struct S {
                static let p = #Predicate<Trip> { S.p.evaluate($0) }
                static let q = #Predicate<Trip> { q.evaluate($0) && $0.days > 1 }
            }
            """
        let report = Self.report(source)
        #expect(report.sites.filter { $0.file == "Use.swift" }.count == 2)
    }
}
