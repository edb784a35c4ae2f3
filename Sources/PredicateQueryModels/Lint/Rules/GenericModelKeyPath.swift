import PredicateQuery

extension LintRule {
    static let genericModelKeyPath = LintRule(
        id: "generic-model-key-path", severity: .warning,
        summary: "a #Predicate over a generic model type reads a property: SwiftData finds no column for it and traps",
        explanation: """
            SwiftData turns each key path of a predicate into a column by matching it against the \
            metadata the `@Model` macro generates for the concrete class. Inside generic code \
            (`struct Cache<Row: CacheRow>`), `#Predicate<Row> { $0.fingerprint == f }` reads \
            `fingerprint` through the protocol's requirement: another key path than the model's \
            stored property, which SwiftData does not find, and it stops the app with a fatal error \
            that no `try` catches. Write the predicate where the model type is concrete (a static \
            function on each model, or at the call site) and pass it in; evaluating a predicate that \
            was passed in (`predicate.evaluate($0)`) is fine. pq cannot check the property against \
            a model here: the site is still counted as skipped.
            """,
        evidence:
            "A shipped app's crash fix: kasianov-mikhail/scout#1152 (\"Run the iOS test matrix in Release and fix the SwiftData predicate trap it exposes\"): a TestFlight build on iOS 27 trapped in PersistentModel.graph_keyPathToString (\"Couldn't find \\IndexedCachedRecord.<computed …>\") on #Predicate<Row> { $0.fingerprint == fingerprint } inside RecordCache<Row: CacheRow>; reproduced in optimized builds. Also eu-digital-identity-wallet/eudi-app-ios-wallet-ui#381 (\"Fix SwiftData crash by enforcing stored identifier in predicates\"), which replaced #Predicate<T> { $0.identifier == id } in generic storage code with predicates on the concrete model. Reports, not Apple's word: a warning.",
        codes: [.swiftGenericModelKeyPath],
        examples: [
            .triggering(
                "import SwiftData\n\nprotocol CacheRow: PersistentModel { var fingerprint: String { get } }\n\nstruct RecordCache<Row: CacheRow> {\n    func rows(_ fingerprint: String) -> FetchDescriptor<Row> {\n        FetchDescriptor(predicate: #Predicate<Row> { $0.fingerprint == fingerprint })\n    }\n}"
            ),
            .nonTriggering(
                "import SwiftData\n\nstruct Filter<T: PersistentModel> {\n    func excluding(_ predicate: Predicate<T>) -> Predicate<T> {\n        #Predicate<T> { !predicate.evaluate($0) }\n    }\n}"
            ),
            .nonTriggering(
                "import SwiftData\n\nstruct Finder<T: PersistentModel> {\n    func one(_ id: PersistentIdentifier) -> Predicate<T> { #Predicate<T> { $0.persistentModelID == id } }\n}"
            ),
        ])
}
