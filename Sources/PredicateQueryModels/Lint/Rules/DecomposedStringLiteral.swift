import PredicateQuery

extension LintRule {
    static let decomposedStringLiteral = LintRule(
        id: "decomposed-string-literal", severity: .warning,
        summary: "a string literal not in composed form (NFC), which the store compares byte for byte",
        explanation: """
            Swift's `==` on Strings is canonical equivalence: `"Montre\\u{301}al" == "Montréal"`. The \
            store compares the stored characters, so SwiftData matches only values spelled the same way. \
            Write the literal as the stored values are spelled, usually composed.
            """,
        evidence:
            "Swift's String == is canonical equivalence (The Swift Programming Language, Strings and Characters); SQLite compares text by its bytes.",
        codes: [.swiftCanonicalEquivalence],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.destination == \"Montre\\u{301}al\" }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.destination == \"Montréal\" }", triggers: false),
        ])
}
