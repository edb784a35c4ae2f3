import PredicateQuery

extension LintRule {
    static let toManyIsEmptyComparedWithFalse = LintRule(
        id: "to-many-is-empty-compared-with-false", severity: .warning,
        summary: "'isEmpty == false' on a to-many relationship, reported to crash SwiftData where '!isEmpty' works",
        explanation: """
            `$0.tags.isEmpty == false` and `!$0.tags.isEmpty` mean the same in Swift, and both \
            compile, but SwiftData was reported to crash at run time on the first while the second \
            (and `$0.tags.isEmpty` itself) works. Write the negation. A warning: the evidence is one \
            author's report, not Apple's word, and no OS version since is recorded.
            """,
        evidence:
            "Hacking with Swift, SwiftData by Example, \"How to filter SwiftData results with predicates\" (updated for Xcode 15): `!$0.cast.isEmpty` works, `$0.cast.isEmpty == false` crashes at run time. The same advice is in that author's SwiftData agent skill.",
        codes: [.swiftToManyIsEmptyComparedWithFalse],
        examples: [
            .withModels("let tagged = #Predicate<Trip> { $0.tags.isEmpty == false }", triggers: true),
            .withModels("let tagged = #Predicate<Trip> { !$0.tags.isEmpty }", triggers: false),
            .withModels("let untagged = #Predicate<Trip> { $0.tags.isEmpty }", triggers: false),
        ])
}
