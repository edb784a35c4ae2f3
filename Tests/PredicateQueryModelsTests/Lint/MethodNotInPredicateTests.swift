// `method-not-in-predicate` for the Swift methods pq's reader reads but the
// `#Predicate` macro rejects: a new user's file with `hasSuffix`, `hasPrefix`,
// `localizedCaseInsensitiveContains` and `Date.now.addingTimeInterval` linted with
// one error (`uppercased()`), where Swift 6.3's macro stops at each of them with
// "The hasSuffix(_:) function is not supported in this predicate".

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct MethodNotInPredicateTests {
    static let models = LintTesting.models(
        """
        import SwiftData
        @Model final class Task { var text: String = ""; var due: Date?; init() {} }
        """)

    static func findings(_ source: String) -> [LintFinding] {
        LintTesting.run(models: models, query: source).findings
    }

    @Test func methodsTheMacroRejectsAreErrorsWithWhatToWrite() throws {
        let found = Self.findings(
            """
            let a = #Predicate<Task> { $0.text.hasSuffix("x") }
            let b = #Predicate<Task> { $0.text.hasPrefix("x") }
            let c = #Predicate<Task> { $0.text.localizedCaseInsensitiveContains("x") }
            let d = #Predicate<Task> { $0.due! > Date.now.addingTimeInterval(-86400) }
            """)
        #expect(found.map { "\($0.rule)@\($0.line)" } == (1...4).map { "method-not-in-predicate@\($0)" })
        #expect(found.allSatisfy { $0.severity == .error && $0.code == .swiftMethodNotInMacro })
        let messages = found.map(\.message)
        #expect(
            messages == [
                "SwiftData's #Predicate does not accept 'hasSuffix(_:)'",
                "SwiftData's #Predicate does not accept 'hasPrefix(_:)'",
                "SwiftData's #Predicate does not accept 'localizedCaseInsensitiveContains(_:)'",
                "SwiftData's #Predicate does not accept 'addingTimeInterval(_:)'",
            ])
        let advice = found.map { $0.notes.map(\.message).joined() }
        #expect(advice[1] == "use starts(with:)")
        #expect(advice[2].contains("localizedStandardContains(_:)"))
        #expect(advice[3].contains("before the closure and capture it"))
        // The caret is under the method's name.
        #expect(found[0].column == 36 && found[0].endColumn == 45, "\(found[0])")
    }

    @Test func whatTheMacroAcceptsStaysQuiet() {
        let found = Self.findings(
            """
            let since = Date.now.addingTimeInterval(-86400)
            let a = #Predicate<Task> { $0.text.starts(with: "x") && $0.text.localizedStandardContains("y") }
            let b = #Predicate<Task> { $0.due.flatMap { $0 > since } ?? false }
            """)
        // (`localizedStandardContains` has a warning of its own, `localized-standard-contains`.)
        let errors = found.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.map(\.message))")
    }

    /// `pq --swift` still reads them: the lint's error is about the app, not pq.
    @Test func pqsReaderStillReadsThem() {
        for text in ["#Predicate<Task> { $0.text.hasSuffix(\"x\") }", "#Predicate<Task> { $0.text.hasPrefix(\"x\") }"] {
            #expect(SwiftPredicate.parse(text).query != nil, "\(text)")
        }
    }
}
