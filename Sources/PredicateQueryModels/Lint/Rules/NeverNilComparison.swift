import PredicateQuery

extension LintRule {
    static let neverNilComparison = LintRule(
        id: "never-nil-comparison", severity: .warning,
        summary: "a value that is never nil compared with nil (or optional-chained): the test is always the same",
        explanation: """
            `$0.name != nil` where `name` is not optional is always true (and `== nil` always false): \
            the test does nothing, and was usually meant for another property, or written before the \
            property stopped being optional. The same holds for `?.` after a value that is never nil. \
            Remove the test, or test the property that can be nil.
            """,
        evidence: "The Swift compiler warns too when a non-optional value is compared with nil: the result never changes.",
        codes: [.neverNil, .unnecessaryOptionalChaining],
        examples: [
            .withModels("let named = #Predicate<Trip> { $0.name != nil }", triggers: true),
            .withModels("let noted = #Predicate<Trip> { $0.note != nil }", triggers: false),
        ])
}
