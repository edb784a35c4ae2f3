import PredicateQuery

extension LintRule {
    static let relationshipNilTest = LintRule(
        id: "relationship-nil-test", severity: .warning,
        summary: "an optional to-one compared with nil where no test of a stored value leads the predicate, which crashed SwiftData on iOS 26",
        explanation: """
            `$0.traveller == nil` is valid, and no documented limit, but shipped apps crashed on predicates \
            with such tests on iOS 26 (a trap in the code the macro generates). The app that counted the \
            crashes took the tests out of its predicates; later it put some back, where a test of a stored \
            value comes first (`$0.days > 3 && $0.traveller == nil`), and reports those tested on iOS 26, \
            while a nil test alone or leading the predicate mis-counted or crashed. So a nil test alone, \
            first in an `&&` chain, or inside `||` is flagged, and one after a test of a stored value is not, \
            nor an `if let` over the relationship. Put a test of a stored value first, or fetch without \
            the nil test and filter the fetched objects in Swift. A warning, since the evidence is crash \
            reports and one app's tests, not Apple's word. (Formerly `relationship-nil-test-in-compound`, \
            which flagged every nil test inside `&&` or `||`; that id is still accepted.)
            """,
        evidence:
            "Crash reports: meshtastic/Meshtastic-Apple#1900 counted 21 crashes in one TestFlight build on iOS 26 and took the nil tests out of its predicates; the same app's later code keeps such tests after a test of a stored value, noting them tested on iOS 26, and says a bare one mis-counts or crashes.",
        codes: [.swiftRelationshipNilTest],
        examples: [
            .withModels("let unassigned = #Predicate<Trip> { $0.traveller == nil && $0.days > 3 }", triggers: true),
            .withModels("let unassigned = #Predicate<Trip> { $0.traveller == nil }", triggers: true),
            .withModels("let unassigned = #Predicate<Trip> { $0.days > 3 && $0.traveller == nil }", triggers: false),
        ],
        formerIDs: ["relationship-nil-test-in-compound"])
}
