// A baseline hides the findings it lists, matched on file, rule and the line's
// trimmed text: lines added above a finding do not bring it back; a change to
// its line, or a new finding, does.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct LintBaselineTests {
    static let models = """
        import SwiftData
        @Model final class Trip { var name: String = ""; var note: String?; init() {} }
        """

    static func run(_ query: String, baseline: LintBaseline? = nil) -> LintRun {
        LintRun(
            [
                SwiftModelSource.File(path: "Models.swift", text: Self.models),
                SwiftModelSource.File(path: "Query.swift", text: query),
            ],
            baseline: baseline)
    }

    @Test func movedFindingsStayHiddenChangedAndNewOnesShow() throws {
        let before = Self.run("let a = #Predicate<Trip> { $0.note != \"x\" }\nlet b = #Predicate<Trip> { $0.nam == \"x\" }")
        #expect(before.findings.count == 2)
        // Through its file, as --write-baseline and --baseline do.
        let baseline = try JSONDecoder().decode(LintBaseline.self, from: Data(LintBaseline(before.findings).json.utf8))
        #expect(baseline.findings.map(\.rule).sorted() == ["nil-inequality", "unknown-property"])
        #expect(baseline.findings.contains { $0.line == "let a = #Predicate<Trip> { $0.note != \"x\" }" })

        let moved = Self.run(
            "// a comment\n\n    let a = #Predicate<Trip> { $0.note != \"x\" }\nlet b = #Predicate<Trip> { $0.nam == \"x\" }",
            baseline: baseline)
        #expect(moved.findings.isEmpty)
        #expect(moved.baselined == 2)

        let changed = Self.run(
            "let a = #Predicate<Trip> { $0.note != \"y\" }\nlet b = #Predicate<Trip> { $0.nam == \"x\" }\nlet c = #Predicate<Trip> { $0.nme == \"x\" }",
            baseline: baseline)
        #expect(changed.findings.map { "\($0.rule)@\($0.line)" } == ["nil-inequality@1", "unknown-property@3"])
        #expect(changed.baselined == 1)
    }

    /// Each entry hides one finding: the same line twice needs two entries.
    @Test func entriesAreCounted() {
        let line = "let a = #Predicate<Trip> { $0.nam == \"x\" }"
        let once = Self.run(line)
        let twice = Self.run(line + "\n" + line, baseline: LintBaseline(once.findings))
        #expect(twice.findings.map(\.line) == [2])
    }
}
