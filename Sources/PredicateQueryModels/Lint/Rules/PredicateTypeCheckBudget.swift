import PredicateQuery

extension LintRule {
    static let predicateTypeCheckBudget = LintRule(
        id: "predicate-type-check-budget", severity: .error,
        summary: "three or more '==' comparisons with literals in one chain, one optional: the compiler gives up type-checking it",
        explanation: """
            In `#Predicate<Trip> { $0.note == "x" && $0.name == "Rome" && $0.destination == "Italy" }` \
            each `==` with a literal can be one of many overloads, the literal's type is open, and \
            with an optional among them the combinations in one `&&` or `||` chain pass the type \
            checker's budget: "the compiler is unable to type-check this expression in reasonable \
            time", and the app does not build. Compare with constants captured outside the closure \
            (`let city = "Rome"`) instead: the same values, typed before the macro sees them, and \
            it compiles at once. Three `!=` comparisons, three non-optional values, or two literals \
            and a captured constant compile too; parentheses that split the chain are not counted.
            """,
        evidence:
            "swiftlang/swift#69277 (three Int? properties compared with 1, 2 and 3), kept in Swift's test suite as a known slow case that fails with the default limit (validation-test/Sema/type_checker_perf/slow/issue-69277.swift). Reproduced with Swift 6.3, for this rule's examples too: TypeCheckBudgetRuleTests compiles them with the toolchain at hand.",
        codes: [.swiftTypeCheckBudget],
        examples: [
            .withModels(
                "let rome = #Predicate<Trip> { $0.note == \"x\" && $0.name == \"Rome\" && $0.destination == \"Italy\" }",
                triggers: true),
            .withModels(
                "func rome() -> Predicate<Trip> {\n    let note = \"x\", name = \"Rome\", place = \"Italy\"\n    return #Predicate<Trip> { $0.note == note && $0.name == name && $0.destination == place }\n}",
                triggers: false),
        ])
}
