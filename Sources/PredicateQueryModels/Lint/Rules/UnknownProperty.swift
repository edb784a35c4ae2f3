import PredicateQuery

extension LintRule {
    static let unknownProperty = LintRule(
        id: "unknown-property", severity: .error,
        summary: "a property the model does not have (often a misspelling)",
        explanation: """
            The query names a member that the model, or the Codable struct it goes through, does not \
            declare: the `#Predicate` macro's closure does not compile. (A member of a stored value of \
            a Swift type, such as `uuidString` of a UUID, compiles: that is `stored-value-member`.) The diagnostic suggests the \
            closest property. A property pq could not read in the model (its type comes from a package \
            not among the files) is not reported.
            """,
        evidence: "The Swift compiler: a member that is not declared does not type-check.",
        codes: [.unknownProperty, .invalidMemberAccess],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.destinaton == \"Oslo\" }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.destination == \"Oslo\" }", triggers: false),
        ])
}
