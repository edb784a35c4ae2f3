import PredicateQuery

extension LintRule {
    static let superfluousDisable = LintRule(
        id: "superfluous-disable", severity: .warning,
        summary: "a pq-lint:disable comment that suppresses nothing, or names no rule",
        explanation: """
            A `// pq-lint:disable…` comment whose rules would not have fired where it applies hides \
            nothing today and would hide a real finding tomorrow: remove it. A comment that names a rule \
            pq does not have is reported too, with the closest rule id. Put a reason after ` - ` if the \
            comment needs one.
            """,
        evidence: "pq's own suppression comments (as SwiftLint's superfluous_disable_command).",
        codes: [.lintSuperfluousDisable],
        examples: [
            .withModels(
                "// pq-lint:disable:next nil-inequality\nlet p = #Predicate<Trip> { $0.name != \"draft\" }", triggers: true),
            .withModels(
                "// pq-lint:disable:next nil-inequality - drafts have no note\nlet p = #Predicate<Trip> { $0.note != \"draft\" }",
                triggers: false),
        ])
}
