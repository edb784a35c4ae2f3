import PredicateQuery

extension LintRule {
    static let localizedStandardContains = LintRule(
        id: "localized-standard-contains", severity: .warning,
        summary: "localizedStandardContains in a predicate, which SwiftData's store was reported to match differently from Swift",
        explanation: """
            `#Predicate<Trip> { $0.name.localizedStandardContains(search) }` compiles and is the search \
            most SwiftData guides recommend, but SwiftData does not call Swift's `String` method: it turns the \
            test into SQL for its store. An app's maintainers took it out of their search predicates \
            because, on some iOS versions, that SQL did not match as Swift's method does: users reported \
            text shown on screen that the search did not find. Where the \
            results must match what the user sees, fetch without the test and filter the fetched objects \
            with `localizedStandardContains` in Swift. A warning: the evidence is one app's field reports, \
            with no OS version or text given, not Apple's word; a team content with the store's matching \
            disables the rule (`disabled_rules`).
            """,
        evidence:
            "meshtastic/Meshtastic-Apple, MessageSearch.swift (2026): the search moved `localizedStandardContains` out of its #Predicate into Swift, because inside the predicate \"a message whose text is plainly on screen could return no search hit (reported in the field)\".",
        codes: [.swiftLocalizedStandardContains],
        examples: [
            .withModels(
                "func trips(matching search: String) -> Predicate<Trip> {\n    #Predicate<Trip> { $0.name.localizedStandardContains(search) }\n}",
                triggers: true),
            .withModels(
                "func trips(named name: String) -> Predicate<Trip> {\n    #Predicate<Trip> { $0.name == name }\n}",
                triggers: false),
        ])
}
