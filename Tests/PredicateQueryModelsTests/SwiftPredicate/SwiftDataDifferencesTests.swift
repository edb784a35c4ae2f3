// `pq lint`'s warnings where SwiftData answers differently from pq, and its
// errors for pq's own spellings in an app: each kind fires on the Swift that
// shows it, at the right place, and not on the spelling that avoids it.

import PredicateQuery
import PredicateQueryModels
import Testing

struct SwiftDataDifferencesTests {
    static let models = SwiftModelSource.File(
        path: "Models.swift",
        text: """
            import SwiftData

            @Model
            final class Trip {
                var name: String
                var code: Int
                var start: Date
                var note: String?
                var owner: Owner?
                var stops: [Stop] = []
                init(name: String) { self.name = name; self.code = 0; self.start = .now }
            }

            @Model
            final class Owner {
                var name: String
                init(name: String) { self.name = name }
            }

            @Model
            final class Stop {
                var city: String?
                var trip: Trip?
                init() {}
            }
            """)

    /// The diagnostics of the one query site in `source`, with the text each points at.
    func lint(_ source: String) -> [(code: String, severity: Severity, text: String)] {
        let file = SwiftModelSource.File(path: "View.swift", text: source)
        let report = SwiftAppLint.lint([Self.models, file], engineDifferences: true)
        let bytes = Array(source.utf8)
        return report.sites.filter { $0.file == "View.swift" }.flatMap(\.diagnostics).map { diagnostic in
            let range = diagnostic.span.start..<min(diagnostic.span.end, bytes.count)
            return (diagnostic.code.rawValue, diagnostic.severity, String(decoding: bytes[range], as: UTF8.self))
        }
    }

    @Test func stringSortWithoutComparatorIsLocalizedStandardInSwiftData() {
        let found = lint("let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.name)])")
        #expect(found.map(\.code) == ["swift.sortDefaultComparator"])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.text == "\\.name")
        // Not a String, or a comparator written: no warning.
        #expect(lint("let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.code)])").isEmpty)
        #expect(lint("let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.name, comparator: .lexical)])").isEmpty)
        #expect(lint("let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.name, comparator: chosen)])").isEmpty)
        // `@Query(sort: \\.name)` goes through the Comparable initializer: no localized default.
        #expect(lint("@Query(sort: \\Trip.name) var trips: [Trip]").isEmpty)
    }

    @Test func localizedComparatorsSortDifferently() {
        let standard = lint("let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.name, comparator: .localizedStandard)])")
        #expect(standard.map(\.code) == ["swift.sortLocalized"])
        let localized = lint("let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.name, comparator: .localized)])")
        #expect(localized.map(\.code) == ["swift.sortLocalized"])
    }

    @Test func decomposedLiteralIsEqualInSwiftButNotInTheStore() {
        let found = lint("let p = #Predicate<Trip> { $0.name == \"Montre\\u{301}al\" }")
        #expect(found.map(\.code) == ["swift.canonicalEquivalence"])
        #expect(found.first?.text == "\"Montre\\u{301}al\"")
        #expect(lint("let p = #Predicate<Trip> { $0.name == \"Montr\\u{E9}al\" }").isEmpty)
    }

    @Test func pqSpellingsAreNotFoundationsPredicate() {
        let cases: [(String, String)] = [
            ("$0.name.like(\"Va*\")", "like"),
            ("$0.name.matches(\"V.*\", options: .caseInsensitive)", "matches"),
            ("$0.name.compare(\"x\", options: .diacriticInsensitive) == .orderedSame", "compare"),
            ("$0.name.range(of: \"x\", options: [.anchored, .caseInsensitive]) != nil", "range"),
            ("$0.start > Date(timeIntervalSinceReferenceDate: 0)", "Date(timeIntervalSinceReferenceDate: 0)"),
            ("$0.start > Calendar.current.startOfDay(for: .now)", "Calendar.current.startOfDay(for: .now)"),
        ]
        for (body, pointed) in cases {
            let found = lint("let p = #Predicate<Trip> { \(body) }")
            #expect(found.map(\.code) == ["swift.notInPredicate"], "\(body)")
            #expect(found.first?.severity == .error)
            #expect(found.first?.text == pointed, "\(body)")
        }
        // Foundation's own spellings of the same tests are accepted.
        #expect(lint("let p = #Predicate<Trip> { $0.name.caseInsensitiveCompare(\"x\") == .orderedSame }").isEmpty)
        let sorted = lint(
            "let d = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\\.name, comparator: String.Comparator(options: .caseInsensitive))])"
        )
        #expect(sorted.map(\.code) == ["swift.notInPredicate"])
    }

    @Test func inequalityWithAValueThatCanBeNilLeavesOutNilInSwiftData() {
        for body in ["$0.note != \"x\"", "$0.owner?.name != name", "name != $0.owner!.name", "!($0.note == \"x\")"] {
            let found = lint("let p = #Predicate<Trip> { \(body) }")
            #expect(found.map(\.code) == ["swift.nilInequality"], "\(body)")
            #expect(found.first?.text == body)
        }
        let inside = lint("let p = #Predicate<Trip> { $0.stops.contains { $0.city != \"Oslo\" } }")
        #expect(inside.map(\.code) == ["swift.nilInequality"])
        // Not optional, compared with nil, or both sides optional: no warning.
        for body in ["$0.name != \"x\"", "$0.note != nil", "$0.owner?.name != $0.note", "$0.note == \"x\"", "!($0.note == nil)"] {
            #expect(lint("let p = #Predicate<Trip> { \(body) }").isEmpty, "\(body)")
        }
    }

    @Test func aNilTestBesideTheInequalityKeepsTheNilObjects() {
        // Where the value is nil, the `||` is true in Swift and in SQL alike: the fix the warning advises.
        for body in [
            "$0.note == nil || $0.note != \"x\"", "nil == $0.note || !($0.note == \"x\")",
            "$0.code > 1 && ($0.owner?.name == nil || ($0.code < 9 && $0.owner?.name != name))",
        ] {
            #expect(lint("let p = #Predicate<Trip> { \(body) }").isEmpty, "\(body)")
        }
        // A nil test of another path, beside rather than around it, or of the trip outside a stop's closure: still warned.
        for body in [
            "$0.owner?.name == nil || $0.note != \"x\"", "($0.note == nil || $0.code > 1) && $0.note != \"x\"",
            "$0.note == nil && $0.code > 1 || $0.note != \"x\"",
        ] {
            #expect(lint("let p = #Predicate<Trip> { \(body) }").map(\.code) == ["swift.nilInequality"], "\(body)")
        }
        let inside = lint("let p = #Predicate<Stop> { $0.city == nil || $0.trip!.stops.contains { s in s.city != \"Oslo\" } }")
        #expect(inside.map(\.code) == ["swift.nilInequality"])
    }

    @Test func countThroughANilToOneIsNilInPqButZeroInSwiftData() {
        let found = lint("let p = #Predicate<Stop> { $0.trip?.stops.count == 0 }")
        #expect(found.map(\.code) == ["swift.toManyThroughNil"])
        #expect(found.first?.text == "$0.trip?.stops.count == 0")
        #expect(lint("let p = #Predicate<Stop> { $0.trip?.stops.count != limit }").map(\.code) == ["swift.toManyThroughNil"])
        // Compared with a count other than 0, given a default, or not through an optional to-one: the same answer.
        for body in ["$0.trip?.stops.count == 2", "($0.trip?.stops.count ?? 0) == 0"] {
            #expect(lint("let p = #Predicate<Stop> { \(body) }").isEmpty, "\(body)")
        }
        #expect(lint("let p = #Predicate<Trip> { $0.stops.count == 0 }").isEmpty)
    }
}
