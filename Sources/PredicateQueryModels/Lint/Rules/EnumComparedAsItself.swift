import PredicateQuery

extension LintRule {
    static let enumComparedAsItself = LintRule(
        id: "enum-compared-as-itself", severity: .error,
        summary: "an enum property compared as itself, which SwiftData's fetch cannot do",
        explanation: """
            SwiftData stores an enum-typed property by its raw value, and a predicate cannot compare \
            the enum itself: the fetch fails at run time. Compare the stored raw value instead \
            (`$0.status.rawValue == "active"`, with the raw value captured in a local when it comes \
            from a case).
            """,
        evidence:
            "SwiftData's own error, thrown by the fetch: SwiftDataError.unsupportedPredicate, \"Unsupported Predicate: Captured/constant values of type 'MealLogStatus' are not supported\", quoted by a shipped app's fix that took `#Predicate { $0.status == status }` out of its fetch (marcosbarbero/fit-iq-workspaces, FitIQ/docs/fixes/MEAL_LOG_API_AND_PREDICATE_FIX.md). No OS version is recorded.",
        codes: [.swiftDataBehaviour],
        examples: [
            .withModels("let active = #Predicate<Trip> { $0.status == .active }", triggers: true),
            .withModels("let active = #Predicate<Trip> { $0.status.rawValue == \"active\" }", triggers: false),
        ])
}
