import PredicateQuery

extension LintRule {
    static let relationshipNilTestInCompound = LintRule(
        id: "relationship-nil-test-in-compound", severity: .warning,
        summary: "an optional to-one compared with nil inside a compound predicate, which crashed SwiftData on iOS 26",
        explanation: """
            `$0.days > 3 && $0.traveller == nil` is valid, and no documented limit, but shipped apps \
            crashed on such predicates on iOS 26 (a trap in the code the macro generates). The same test \
            alone, or an `if let` over the relationship, is not flagged: nothing seen shows it crashing. \
            If it crashes for you, fetch without the nil test and filter the fetched objects in Swift, as \
            that app's fix did. A warning, since the evidence is crash reports, not Apple's word.
            """,
        evidence:
            "Crash reports: meshtastic/Meshtastic-Apple#1900 counted 21 crashes in one TestFlight build on iOS 26, fixed by taking the test out of the predicates.",
        codes: [.swiftRelationshipNilTest],
        examples: [
            .withModels("let alone = #Predicate<Trip> { $0.days > 3 && $0.traveller == nil }", triggers: true),
            .withModels("let alone = #Predicate<Trip> { $0.traveller == nil }", triggers: false),
        ])
}
