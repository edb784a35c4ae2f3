// `.pq-lint.yml` and the baseline from the command line: the configuration in
// the folder pq runs in (or --config) chooses the paths, rules and severities;
// --write-baseline then --baseline hide the accepted findings and no others.

import Foundation
import Testing

struct LintConfigurationCommandTests {
    @Test func theConfigurationInTheFolderIsRead() throws {
        let fixture = try LintFixture(files: [
            "Generated/Bad.swift": "import SwiftData\nlet c = #Predicate<Trip> { $0.nme == \"x\" }\n"
        ])
        defer { fixture.remove() }
        // With no configuration, both folders are linted when named.
        let plain = try fixture.lint(["."])
        #expect(plain.output.contains("Generated/Bad.swift:2:31: error"), "\(plain.output)")
        try fixture.write(
            ".pq-lint.yml",
            """
            included:
              - App
              - Generated
            excluded:
              - Generated
            disabled_rules: [nil-inequality]
            severity:
              unknown-property: warning
            """)
        let configured = try fixture.lint([])
        #expect(configured.status == 0, "\(configured.output)\(configured.error)")
        #expect(!configured.output.contains("Generated/"))
        #expect(!configured.output.contains("nil-inequality"))
        #expect(
            configured.output.contains(
                "App/Queries.swift:3:31: warning: value of type 'Trip' has no member 'nam' [unknown-property]"))
        #expect(configured.output.hasSuffix("2 queries in 2 files: 0 errors, 1 warning\n"), "\(configured.output)")
        // --config names another file, whose paths are relative to its folder.
        try fixture.write("ci/lint.yml", "included:\n  - ../App\n")
        let other = try fixture.lint(["--config", "ci/lint.yml"])
        #expect(other.status == 1)
        #expect(other.output.contains("[nil-inequality]") && other.output.contains("App/Queries.swift:3:31: error"))
    }

    @Test func aBaselineHidesWhatItAcceptedAndNothingNew() throws {
        let fixture = try LintFixture()
        defer { fixture.remove() }
        let written = try fixture.lint(["--write-baseline", "baseline.json", "App"])
        #expect(written.status == 0, "the findings written are accepted")
        #expect(written.output.contains("2 in the baseline"))
        let baseline = try fixture.read("baseline.json")
        #expect(baseline.contains("\"file\" : \"App/Queries.swift\""))
        #expect(baseline.contains("\"rule\" : \"unknown-property\""))
        #expect(baseline.contains("\"line\" : \"let b = #Predicate<Trip> { $0.nam == \\\"x\\\" }\""))
        // Lines added above move the findings; they stay hidden. A new one is reported.
        try fixture.write(
            "App/Queries.swift",
            "import SwiftData\n\n// moved\n" + LintFixture.queries.dropFirst("import SwiftData\n".count)
                + "\nlet c = #Predicate<Trip> { $0.nme == \"x\" }\n")
        let later = try fixture.lint(["--baseline", "baseline.json", "App"])
        #expect(later.status == 1)
        let errors = later.output.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(errors == ["App/Queries.swift:6:31: error: value of type 'Trip' has no member 'nme' [unknown-property]"])
        #expect(!later.output.contains(": warning: "))
        #expect(later.output.contains("2 in the baseline"))
        // Written again over the old one, the baseline keeps what it had accepted and adds the new one.
        let rewritten = try fixture.lint(["--baseline", "baseline.json", "--write-baseline", "baseline.json", "App"])
        #expect(rewritten.status == 0)
        #expect(rewritten.output.contains("3 in the baseline"), "\(rewritten.output)")
        #expect(try fixture.read("baseline.json").components(separatedBy: "\"rule\"").count - 1 == 3)
        #expect(try fixture.lint(["--baseline", "baseline.json", "App"]).status == 0)
    }

    @Test func suppressionCommentsFromTheCommandLine() throws {
        let queries = """
            import SwiftData
            // pq-lint:disable:next nil-inequality - notes are never nil here
            let a = #Predicate<Trip> { $0.note != "x" }
            let b = #Predicate<Trip> { $0.nam == "x" } // pq-lint:disable:this unknown-property
            // pq-lint:disable:next unknown-property
            let c = #Predicate<Trip> { $0.name == "x" }
            """
        let fixture = try LintFixture(queries: queries)
        defer { fixture.remove() }
        let result = try fixture.lint(["App"])
        #expect(result.status == 0)
        #expect(
            result.output.contains(
                "App/Queries.swift:5:25: warning: 'pq-lint:disable:next unknown-property' suppresses nothing: 'unknown-property' did not fire on the next line [superfluous-disable]"
            ), "\(result.output)")
        #expect(result.output.contains("0 errors, 1 warning, 2 suppressed"))
        #expect(try fixture.lint(["--strict", "App"]).status == 1)
    }
}
