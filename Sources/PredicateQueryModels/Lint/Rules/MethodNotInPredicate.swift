import PredicateQuery

extension LintRule {
    static let methodNotInPredicate = LintRule(
        id: "method-not-in-predicate", severity: .error,
        summary: "a method Foundation's #Predicate macro does not accept",
        explanation: """
            Foundation's `#Predicate` macro accepts a fixed list of methods (`contains`, \
            `contains(where:)`, `allSatisfy`, `filter`, `starts(with:)`, `min()`, `max()`, \
            `localizedStandardContains`, `localizedCompare`, `caseInsensitiveCompare`, `evaluate` and \
            subscripts); any other, such as `lowercased()` or `hasSuffix`, is the macro's compile error. \
            Use one it accepts: `$0.name.localizedStandardContains("oslo")` instead of \
            `$0.name.lowercased() == "oslo"`. Swift that pq's own reader cannot read, but the macro \
            accepts, is skipped and counted instead.
            """,
        evidence: """
            swift-foundation, Sources/FoundationMacros/PredicateMacro.swift: the list knownSupportedFunctions; \
            Swift 6.3's macro, asked: "The hasSuffix(_:) function is not supported in this predicate", and \
            so for hasPrefix(_:), localizedCaseInsensitiveContains(_:) and addingTimeInterval(_:), which \
            pq's reader reads.
            """,
        codes: [.swiftUnsupported, .swiftSyntax, .swiftMethodNotInMacro],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.name.lowercased() == \"oslo\" }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.name.hasSuffix(\"lo\") }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.name.localizedStandardContains(\"oslo\") }", triggers: false),
        ])
}
