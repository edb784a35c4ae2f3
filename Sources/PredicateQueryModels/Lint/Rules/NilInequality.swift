import PredicateQuery

extension LintRule {
    static let nilInequality = LintRule(
        id: "nil-inequality", severity: .warning,
        summary: "x != value where x can be nil: SwiftData's SQL leaves the nil objects out",
        explanation: """
            In Swift `nil != "x"` is true, but SwiftData's SQLite fetch runs SQL's `<>`, for which a NULL \
            is not different from anything: the objects whose value is nil (an optional attribute, or one \
            reached through an optional to-one relationship) are left out. `!(x == value)` is the same. \
            To keep them, test nil yourself: `$0.note == nil || $0.note != "x"`.
            """,
        evidence:
            "Reported by Douglas Hill, \"NSPredicate: an old API with new surprises\": a Core Data fetch of `author != %@` missed every article without an author. SwiftData's SQLite store runs the same SQL.",
        codes: [.swiftNilInequality],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.note != \"draft\" }", triggers: true),
            .triggering([
                LintExample.models,
                (
                    "Views/TravellerTrips.swift",
                    "import SwiftData\n\nfunc trips(notBy name: String) -> FetchDescriptor<Trip> {\n    FetchDescriptor(predicate: #Predicate { $0.traveller?.name != name })\n}"
                ),
            ]),
            .withModels("let p = #Predicate<Trip> { $0.name != \"draft\" }", triggers: false),
            // Where the note is nil the first test is true, in Swift and in SQL alike.
            .withModels("let p = #Predicate<Trip> { $0.note == nil || $0.note != \"draft\" }", triggers: false),
        ])
}
