// `pq lint`'s exit status, from the real binary: 0 without errors (warnings
// allowed), 1 with errors or, under --strict, warnings; 2 for bad usage, a path
// that cannot be read, a bad configuration or baseline.

import Foundation
import Testing

struct LintExitStatusTests {
    static let warningOnly = "import SwiftData\nlet a = #Predicate<Trip> { $0.note != \"x\" }\n"
    static let clean = "import SwiftData\nlet a = #Predicate<Trip> { $0.name != \"x\" }\n"

    @Test func zeroWhenCleanOrOnlyWarnings() throws {
        let clean = try LintFixture(queries: Self.clean)
        defer { clean.remove() }
        let result = try clean.lint(["App"])
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("0 errors, 0 warnings\n"), "\(result.output)")
        let warned = try LintFixture(queries: Self.warningOnly)
        defer { warned.remove() }
        let warning = try warned.lint(["App"])
        #expect(warning.status == 0)
        #expect(warning.output.contains("0 errors, 1 warning"))
    }

    @Test func oneForErrorsAndForWarningsUnderStrict() throws {
        let fixture = try LintFixture()
        defer { fixture.remove() }
        #expect(try fixture.lint(["App"]).status == 1)
        let warned = try LintFixture(queries: Self.warningOnly)
        defer { warned.remove() }
        #expect(try warned.lint(["--strict", "App"]).status == 1)
        // strict: true in the configuration does the same.
        try warned.write(".pq-lint.yml", "strict: true\n")
        #expect(try warned.lint(["App"]).status == 1)
    }

    @Test func twoForUsageUnreadablePathsAndBadConfiguration() throws {
        let fixture = try LintFixture()
        defer { fixture.remove() }
        let unknownOption = try fixture.lint(["--frmat", "json", "App"])
        #expect(unknownOption.status == 2)
        #expect(unknownOption.error.contains("unknown option '--frmat'"))
        let badFormat = try fixture.lint(["--format", "xml", "App"])
        #expect(badFormat.status == 2)
        #expect(badFormat.error.contains("--format must be text, json, sarif, github or junit, not 'xml'"))
        let noPath = try fixture.lint([])
        #expect(noPath.status == 2)
        let missing = try fixture.lint(["Nowhere"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no file or folder at 'Nowhere'"))
        let unknownRule = try fixture.lint(["--explain", "nil-inequalty"])
        #expect(unknownRule.status == 2)
        #expect(unknownRule.error.contains("did you mean 'nil-inequality'?"))
        let noBaseline = try fixture.lint(["--baseline", "missing.json", "App"])
        #expect(noBaseline.status == 2)
        #expect(noBaseline.error.contains("cannot read the baseline 'missing.json'"))
        try fixture.write(".pq-lint.yml", "disabled_rules:\n  - nil-inequality\n  - unknown-propety\n")
        let badConfiguration = try fixture.lint(["App"])
        #expect(badConfiguration.status == 2)
        #expect(
            badConfiguration.error.contains(
                ".pq-lint.yml: line 3: unknown rule 'unknown-propety'; did you mean 'unknown-property'?"),
            "\(badConfiguration.error)")
    }
}
