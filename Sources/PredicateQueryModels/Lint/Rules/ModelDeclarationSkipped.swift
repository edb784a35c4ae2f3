import PredicateQuery

extension LintRule {
    static let modelDeclarationSkipped = LintRule(
        id: "model-declaration-skipped", severity: .note,
        summary: "part of a @Model class pq could not read; queries that use it are not checked",
        explanation: """
            pq reads `@Model` classes from the source without building them. What it cannot read — a \
            property whose type it does not know, an attribute argument it does not understand, a stored \
            property added in an extension — is skipped, and a note says so. It says nothing about the \
            app: a query that uses the skipped property is not reported.
            """,
        evidence: "pq's own limit, not SwiftData's: a note, never an error.",
        codes: [.lintModelSkipped],
        examples: [
            .triggering(
                "import SwiftData\n@Model final class Trip {\n    var name: String = \"\"\n    @Attribute(.unique, bogus: 1) var code: String = \"\"\n    init() {}\n}\nlet p = #Predicate<Trip> { $0.name == \"x\" }"
            ),
            .withModels("let p = #Predicate<Trip> { $0.name == \"x\" }", triggers: false),
        ])
}
