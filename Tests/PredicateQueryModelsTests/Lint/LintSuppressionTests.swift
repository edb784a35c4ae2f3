// `// pq-lint:` comments hide the findings they name where they apply, and a
// comment that hides nothing (or names no rule, or is no command) is itself a
// `superfluous-disable` finding at the comment.

import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct LintSuppressionTests {
    static let models = LintTesting.models(
        """
        import SwiftData
        @Model final class Trip { var name: String = ""; var note: String?; init() {} }
        """)

    /// The findings of `source` (in `Query.swift`) as `rule@line`, and how many were suppressed.
    static func lint(
        _ source: String, configuration: LintConfiguration = LintConfiguration()
    ) -> (found: [String], suppressed: Int) {
        let run = LintTesting.run(models: models, query: source, configuration: configuration)
        return (run.findings.map { "\($0.rule)@\($0.line)" }, run.suppressed)
    }

    static let nilTest = "#Predicate<Trip> { $0.note != \"x\" }"
    static let misspelled = "#Predicate<Trip> { $0.nam == \"x\" }"

    @Test func withoutCommentsBothFire() {
        let result = Self.lint("let a = \(Self.nilTest)\nlet b = \(Self.misspelled)")
        #expect(result.found == ["nil-inequality@1", "unknown-property@2"])
        #expect(result.suppressed == 0)
    }

    @Test func disableNextHidesTheNextLineOnly() {
        let result = Self.lint(
            "// pq-lint:disable:next nil-inequality\nlet a = \(Self.nilTest)\nlet b = \(Self.nilTest)")
        #expect(result.found == ["nil-inequality@3"])
        #expect(result.suppressed == 1)
    }

    @Test func disableThisAndPrevious() {
        let result = Self.lint(
            "let a = \(Self.nilTest) // pq-lint:disable:this nil-inequality\nlet b = \(Self.misspelled)\n// pq-lint:disable:previous unknown-property - a test of the reason"
        )
        #expect(result.found == [])
        #expect(result.suppressed == 2)
    }

    @Test func disableUntilEnable() {
        let source = """
            // pq-lint:disable nil-inequality unknown-property
            let a = \(Self.nilTest)
            let b = \(Self.misspelled)
            // pq-lint:enable nil-inequality
            let c = \(Self.nilTest)
            let d = \(Self.misspelled)
            """
        let result = Self.lint(source)
        #expect(result.found == ["nil-inequality@5"])
        #expect(result.suppressed == 3)
    }

    @Test func enableNextInsideADisabledBlock() {
        let source = """
            // pq-lint:disable all
            let a = \(Self.nilTest)
            // pq-lint:enable:next nil-inequality
            let b = \(Self.nilTest)
            let c = \(Self.nilTest)
            """
        #expect(Self.lint(source).found == ["nil-inequality@4"])
    }

    @Test func disableAllAndEnableAll() {
        let source = """
            // pq-lint:disable all
            let a = \(Self.nilTest)
            let b = \(Self.misspelled)
            // pq-lint:enable all
            let c = \(Self.misspelled)
            """
        #expect(Self.lint(source).found == ["unknown-property@5"])
    }

    @Test func aDisableThatHidesNothingIsReportedAtItsRule() {
        let result = Self.lint("// pq-lint:disable:next unknown-property\nlet a = \(Self.nilTest)")
        #expect(result.found == ["superfluous-disable@1", "nil-inequality@2"])
        let run = LintRun([
            Self.models, SwiftModelSource.File(path: "Query.swift", text: "let x = 1 // pq-lint:disable:this all"),
        ])
        #expect(!run.findings.isEmpty)
        let finding = run.findings.first
        #expect(finding?.rule == "superfluous-disable")
        #expect(finding?.column == 35, "at 'all'")
        #expect(finding?.severity == .warning)
        #expect(finding?.message == "'pq-lint:disable:this all' suppresses nothing: no rule fired on this line")
        let one = LintRun([
            Self.models, SwiftModelSource.File(path: "Query.swift", text: "// pq-lint:disable nil-inequality\nlet x = 1"),
        ])
        #expect(
            one.findings.map(\.message) == [
                "'pq-lint:disable nil-inequality' suppresses nothing: 'nil-inequality' did not fire on the lines it covers"
            ])
        let typo = LintRun([Self.models, SwiftModelSource.File(path: "Query.swift", text: "// pq-lint:disable alll")])
        #expect(typo.findings.map(\.message) == ["unknown rule 'alll'; did you mean 'all'?"])
    }

    @Test func unknownRulesAndCommandsAreReportedWithASuggestion() {
        let run = LintRun([
            Self.models,
            SwiftModelSource.File(
                path: "Query.swift",
                text:
                    "// pq-lint:disable:next nil-inequalty\nlet a = \(Self.nilTest)\n// pq-lint:disabel nil-inequality\n// pq-lint:disable"
            ),
        ])
        let messages = run.findings.filter { $0.rule == "superfluous-disable" }.map(\.message)
        #expect(messages.count == 3)
        #expect(messages.contains { $0.contains("did you mean 'nil-inequality'?") })
        #expect(messages.contains { $0.contains("'pq-lint:disabel' is not a pq-lint command") })
        #expect(messages.contains { $0.contains("names no rule") })
        // The misspelled rule hid nothing.
        #expect(run.findings.contains { $0.rule == "nil-inequality" && $0.line == 2 })
    }

    @Test func windowsLineEndsAreRead() {
        let result = Self.lint("// pq-lint:disable:next nil-inequality\r\nlet a = \(Self.nilTest)\r\nlet b = \(Self.nilTest)\r\n")
        #expect(result.found == ["nil-inequality@3"])
    }

    @Test func aCommentInsideAStringIsNotACommand() {
        let result = Self.lint("let s = \"// pq-lint:disable:this nil-inequality\"; let a = \(Self.nilTest)")
        #expect(result.found == ["nil-inequality@1"])
    }

    /// A rule the configuration disables cannot make a suppression of it superfluous.
    @Test func suppressionsOfRulesThatDoNotRunAreNotSuperfluous() throws {
        var configuration = LintConfiguration()
        configuration.disabledRules = ["unknown-property"]
        let source = "// pq-lint:disable:next unknown-property\nlet a = \(Self.nilTest)"
        #expect(Self.lint(source, configuration: configuration).found == ["nil-inequality@2"])
        // Nor can engine-sort-order when --engine-differences is not given.
        #expect(Self.lint("// pq-lint:disable:next engine-sort-order\nlet s = SortDescriptor(\\Trip.name)").found == [])
    }
}
