import PredicateQuery

extension LintRule {
    static let computedIdentity = LintRule(
        id: "computed-identity", severity: .error,
        summary: "$0.id on a model that declares no id: SwiftData's computed identity, which a predicate cannot test",
        explanation: """
            A `@Model` class is a `PersistentModel`, which is `Identifiable` through an extension \
            property: on a model that declares no `id` of its own, `id` is computed (the \
            `persistentModelID`), not stored, so a predicate cannot test it and the fetch fails at run \
            time. Compare `persistentModelID` instead. A model that declares its own `id` (a stored \
            UUID) is not concerned, nor is a sort by `\\.id`.
            """,
        evidence:
            "SwiftData's interface declares PersistentModel's id as a computed property (`var id: PersistentIdentifier { get }`), and a predicate can test only stored properties. (An earlier version of this text cited eu-digital-identity-wallet/eudi-app-ios-wallet-ui#381 as replacing $0.id with persistentModelID; its code shows a predicate moved off a generic model type instead, the case of generic-model-key-path.)",
        codes: [.swiftComputedIdentity],
        examples: [
            .withModels(
                "func trip(_ id: PersistentIdentifier) -> Predicate<Trip> { #Predicate { $0.id == id } }", triggers: true),
            .withModels(
                "func trip(_ id: PersistentIdentifier) -> Predicate<Trip> { #Predicate { $0.persistentModelID == id } }",
                triggers: false),
        ])
}
