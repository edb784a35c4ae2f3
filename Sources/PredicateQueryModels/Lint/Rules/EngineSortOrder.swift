import PredicateQuery

extension LintRule {
    static let engineSortOrder = LintRule(
        id: "engine-sort-order", severity: .warning,
        summary: "a String sort pq's own engine orders differently from SwiftData (only with --engine-differences)",
        explanation: """
            `SortDescriptor(\\.name)` on a String sorts with `.localizedStandard` in SwiftData \
            (Finder-like: case-insensitive, digits as numbers, the current locale's rules), and \
            `.localized` follows the locale; pq sorts by code point. This says nothing about an app that \
            runs on SwiftData, so it is reported only with `--engine-differences`, for running an app's \
            queries with pq. Write `comparator: .lexical` for an order both agree on.
            """,
        evidence: "Foundation's SortDescriptor initializer for String key paths defaults to comparator: .localizedStandard.",
        codes: [.swiftSortDefaultComparator, .swiftSortLocalized],
        examples: [
            .withModels("let byName = SortDescriptor(\\Trip.name)", triggers: true),
            .withModels("let byName = SortDescriptor(\\Trip.name, comparator: .lexical)", triggers: false),
        ],
        optIn: true)
}
