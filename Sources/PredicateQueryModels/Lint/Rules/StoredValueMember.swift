import PredicateQuery

extension LintRule {
    static let storedValueMember = LintRule(
        id: "stored-value-member", severity: .error,
        summary: "a key path that goes on into a member of a stored value ($0.owner?.id.uuidString), which SwiftData traps on",
        explanation: """
            A predicate's key path has to end at a stored property (or a field of a Codable struct). \
            `$0.owner?.id.uuidString` compiles, since `uuidString` is a member of `UUID`, but \
            SwiftData maps each key path to a column of the model and stops the app with a fatal \
            error when the path goes on past a value: "Invalid KeyPath id.uuidString on … points to \
            a value type: UUID but has additional descendant: uuidString". Compare the stored value \
            itself, and convert what it is compared with before the predicate \
            (`let id = UUID(uuidString: text)`). Values of Swift's own types are concerned (String, \
            UUID, Date, numbers, Data, URL); an enum's `rawValue` is not (it is what SwiftData \
            stores), and a member a Codable struct or an enum of the app does not declare is \
            `unknown-property`.
            """,
        evidence:
            "SwiftData's own fatal error (SwiftData/Schema.swift), quoted by a shipped app's fix of a crash at launch: marcosbarbero/fit-iq-workspaces, FitIQ/docs/fixes/SWIFTDATA_KEYPATH_FIX.md, which replaced `entry.userProfile?.id.uuidString == userID` with a comparison of the UUID in its predicates.",
        codes: [.swiftStoredValueMember],
        examples: [
            .withModels("let p = #Predicate<Trip> { $0.name.capitalized == \"Oslo\" }", triggers: true),
            .withModels("let p = #Predicate<Trip> { $0.name == \"Oslo\" }", triggers: false),
        ])
}
