import PredicateQuery

extension LintRule {
    static let computedProperty = LintRule(
        id: "computed-property", severity: .error,
        summary: "a computed property in a query: it is never stored, so the store cannot test it",
        explanation: """
            SwiftData stores a model's stored properties only; a computed property has no column, so a \
            predicate or sort descriptor that uses it cannot run in the store. Query the stored \
            properties it is computed from.
            """,
        evidence: "SwiftData's @Model macro persists stored properties only. No OS version or reference is recorded yet.",
        codes: [.computedProperty],
        examples: [
            .withModels("let long = #Predicate<Trip> { $0.isLong }", triggers: true),
            .withModels("let long = #Predicate<Trip> { $0.days > 14 }", triggers: false),
        ])
}
