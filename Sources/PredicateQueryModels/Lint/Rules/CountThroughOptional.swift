import PredicateQuery

extension LintRule {
    static let countThroughOptional = LintRule(
        id: "count-through-optional", severity: .warning,
        summary: "a count through an optional to-one: nil in Swift, 0 in SwiftData's SQL",
        explanation: """
            `$0.traveller?.trips.count == 0`: Swift takes the count through a nil `traveller` as nil, \
            so the test is false; SwiftData's SQL counts the rows it joins, none, and compares 0, so the \
            test holds there. Say what a missing relationship means: `($0.traveller?.trips.count ?? 0) == 0` \
            counts it as empty in both.
            """,
        evidence: "How SQL's COUNT over a join and Swift's optional chaining differ. No OS version or reference is recorded yet.",
        codes: [.swiftToManyThroughNil],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.traveller?.trips.count == 0 }", triggers: true),
            .withModels("let p = #Predicate<Trip> { ($0.traveller?.trips.count ?? 0) == 0 }", triggers: false),
        ])
}
