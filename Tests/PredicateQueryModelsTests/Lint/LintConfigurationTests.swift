// `.pq-lint.yml`: the documented YAML subset, read without a YAML library, with
// an error naming the line of anything outside it; and what the configuration
// does to a run (disabled rules, severities, excluded paths).

import Foundation
import PredicateQuery
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryModels

struct LintConfigurationTests {
    static let documented = """
        # pq lint's configuration
        ---
        included:
          - Sources
          - "App Sources"   # quoted, with a space
        excluded: [Sources/Generated, '**/Mocks']
        disabled_rules:
          - nil-inequality
        opt_in_rules:
          - engine-sort-order
        severity:
          decomposed-string-literal: error
          superfluous-disable: note
        strict: true
        """

    @Test func readsTheDocumentedForm() throws {
        let configuration = try LintConfiguration(text: Self.documented, root: "/project")
        #expect(configuration.included == ["Sources", "App Sources"])
        #expect(configuration.excluded == ["Sources/Generated", "**/Mocks"])
        #expect(configuration.disabledRules == ["nil-inequality"])
        #expect(configuration.optInRules == ["engine-sort-order"])
        #expect(configuration.severities == ["decomposed-string-literal": .error, "superfluous-disable": .note])
        #expect(configuration.strict)
    }

    /// Each text is outside the subset or wrong; the error names its line and says what is wrong.
    static let errors: [(text: String, line: Int, says: String)] = [
        ("disabled_rules:\n  - nil-inequalty", 2, "did you mean 'nil-inequality'?"),
        ("disabeld_rules:\n  - nil-inequality", 1, "did you mean 'disabled_rules'?"),
        ("severity:\n  nil-inequality: fatal", 2, "'fatal' is no severity"),
        ("strict: yes", 1, "'strict' is true or false"),
        ("included:\n\t- Sources", 2, "not tabs"),
        ("included: &sources\n  - a", 1, "'&' starts YAML"),
        ("message: |\n  text", 1, "'|' starts YAML"),
        ("severity: {nil-inequality: error}", 1, "'{' starts YAML"),
        ("severity:\n  rules:\n    nil-inequality: error", 2, "nests one level only"),
        ("included:\n  - a\nincluded:\n  - b", 3, "given twice (first on line 1)"),
        ("included: [a, b", 1, "must end with ']'"),
        ("  - a", 1, "outside any key"),
        ("just some words", 1, "expected 'key: value'"),
        ("included:\n  - \"unclosed", 2, "not closed"),
    ]

    @Test(arguments: errors.indices) func errorsNameTheirLine(_ index: Int) {
        let (text, line, says) = Self.errors[index]
        do {
            _ = try LintConfiguration(text: text, root: ".")
            Issue.record("no error for \(text)")
        } catch {
            #expect(error.line == line, "\(text): \(error)")
            #expect(error.message.contains(says), "\(text): \(error)")
            #expect(error.description.hasPrefix("line \(line): "))
        }
    }

    @Test func aRunDropsDisabledRulesAndAppliesSeverities() throws {
        let files = [
            SwiftModelSource.File(
                path: "Query.swift",
                text: """
                    import SwiftData
                    @Model final class Trip { var name: String = ""; var note: String?; init() {} }
                    let a = #Predicate<Trip> { $0.note != "x" }
                    let b = #Predicate<Trip> { $0.name == "Montre\\u{301}al" }
                    """)
        ]
        let plain = LintRun(files)
        #expect(Set(plain.findings.map(\.rule)) == ["nil-inequality", "decomposed-string-literal"])
        #expect(plain.errors == 0 && plain.warnings == 2)
        let configured = LintRun(files, configuration: try LintConfiguration(text: Self.documented, root: "."))
        #expect(configured.findings.map(\.rule) == ["decomposed-string-literal"])
        #expect(configured.errors == 1 && configured.warnings == 0)
    }

    @Test func excludedPatterns() throws {
        let configuration = try LintConfiguration(
            text: "excluded:\n  - Sources/Generated\n  - \"**/Mocks\"\n  - \"*Tests/*.swift\"", root: "/project")
        #expect(configuration.excludes("/project/Sources/Generated/Model.swift"))
        #expect(configuration.excludes("/project/Sources/Generated"))
        #expect(!configuration.excludes("/project/Sources/GeneratedNot/Model.swift"))
        #expect(configuration.excludes("/project/Sources/App/Mocks/Trip.swift"))
        #expect(configuration.excludes("/project/Mocks/Trip.swift"))
        #expect(configuration.excludes("/project/AppTests/Trip.swift"))
        #expect(!configuration.excludes("/project/AppTests/Sub/Trip.swift"))
        #expect(!configuration.excludes("/elsewhere/Sources/Generated/Model.swift"))
    }

    /// The configurations README.md and the articles under Documentation/ show (their yaml
    /// blocks that set `included`, two in all) are read as written.
    @Test func theDocumentedExamplesAreRead() throws {
        var blocks: [String] = []
        let articles = try FileManager.default.contentsOfDirectory(
            atPath: GoldenFile.repositoryRoot.appendingPathComponent("Documentation").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
        for path in ["README.md"] + articles {
            let text = try String(contentsOf: GoldenFile.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
            for block in text.components(separatedBy: "```yaml\n").dropFirst() {
                let body = block.components(separatedBy: "```").first ?? ""
                if body.contains("included:") { blocks.append(body) }
            }
        }
        #expect(blocks.count == 2)
        for block in blocks {
            let configuration = try LintConfiguration(text: block, root: ".")
            #expect(configuration.included.contains("Sources"), "\(block)")
            #expect(!configuration.disabledRules.isEmpty && !configuration.severities.isEmpty, "\(block)")
        }
    }
}
