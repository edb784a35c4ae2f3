import PredicateQuery

extension LintRule {
    static let pqOnlySpelling = LintRule(
        id: "pq-only-spelling", severity: .error,
        summary: "pq's own spelling (like, sum(\\.x), compare(_:options:)), which Foundation does not accept",
        explanation: """
            pq's Swift reader accepts a few spellings of its own — `like(_:)` for LIKE, `sum(\\.x)`, \
            `compare(_:options:)`, `String.Comparator(options:)`, initializers inside the closure — that \
            Foundation's `#Predicate` and `SortDescriptor` do not: in an app they do not compile. Write \
            what Foundation accepts (the diagnostic's note says what).
            """,
        evidence: "Foundation's #Predicate macro and SortDescriptor initializers (swift-foundation) have no such spellings.",
        codes: [.swiftNotInPredicate],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.name.like(\"Summer*\") }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.name.starts(with: \"Summer\") }", triggers: false),
        ])
}
