import PredicateQuery

extension LintRule {
    static let memberOfToMany = LintRule(
        id: "member-of-to-many", severity: .error,
        summary: "a member after a to-many relationship, which Swift has no implicit ANY for",
        explanation: """
            A to-many relationship is an array in Swift: `$0.tags.name` does not compile against \
            SwiftData's models, and SwiftData has no implicit ANY as NSPredicate strings do. Test the \
            elements: `$0.tags.contains { $0.name == "beach" }`.
            """,
        evidence:
            "Swift's type system: an Array has no member of its elements. pq reads the member as NSPredicate's implicit ANY, so the lint reports it.",
        codes: [.swiftDataToMany],
        examples: [
            .withModels("let beach = #Predicate<Trip> { $0.tags.name == \"beach\" }", triggers: true),
            .withModels("let beach = #Predicate<Trip> { $0.tags.contains { $0.name == \"beach\" } }", triggers: false),
        ])
}
