import PredicateQuery

extension LintRule {
    static let transientProperty = LintRule(
        id: "transient-property", severity: .error,
        summary: "a @Transient property in a query: it is never stored, so the store cannot test it",
        explanation: """
            A property marked `@Transient` lives only in memory: SwiftData never writes it to the store, \
            so a predicate or sort descriptor that uses it cannot run there. Query a stored property, or \
            filter the fetched objects in Swift.
            """,
        evidence: "SwiftData's @Transient macro: the property is not persisted. No OS version or reference is recorded yet.",
        codes: [.transientProperty],
        examples: [
            .withModels("let drafts = #Predicate<Trip> { $0.draftNote != \"\" }", triggers: true),
            .withModels("let drafts = #Predicate<Trip> { $0.note != nil }", triggers: false),
        ])
}
