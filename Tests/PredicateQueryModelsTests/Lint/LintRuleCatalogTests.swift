// The rule catalog is what `pq lint` does: every example of every rule runs
// through the real lint (`LintRun`) and fires, or does not, as it says; every
// diagnostic code the lint's stages declare belongs to exactly one rule; and
// Documentation/Lint.md holds the catalog as the code has it.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryModels

struct LintRuleCatalogTests {
    /// Runs one example: the findings, and how many sites were checked (not skipped).
    static func run(_ example: LintExample, of rule: LintRule) -> (findings: [LintFinding], checked: Int) {
        let run = LintRun(example.files, engineDifferences: rule.optIn)
        return (run.findings, run.report.sites.filter { $0.skipped == nil }.count)
    }

    static var rules: [LintRule] { LintRuleCatalog.all }

    @Test func idsAreUniqueKebabCaseAndEveryRuleHasBothKindsOfExample() {
        let ids = Self.rules.map(\.id)
        #expect(Set(ids).count == ids.count)
        for rule in Self.rules {
            #expect(rule.id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, "\(rule.id)")
            #expect(!rule.id.hasPrefix("-") && !rule.id.hasSuffix("-") && !rule.id.contains("--"), "\(rule.id)")
            #expect(!rule.triggering.isEmpty, "\(rule.id) has no example it fires on")
            #expect(!rule.nonTriggering.isEmpty, "\(rule.id) has no example it does not fire on")
            #expect(!rule.summary.contains("\n") && !rule.explanation.isEmpty && !rule.evidence.isEmpty, "\(rule.id)")
        }
    }

    @Test(arguments: rules.map(\.id)) func firesOnItsTriggeringExamples(_ id: String) throws {
        let rule = try #require(LintRuleCatalog.rule(id: id))
        for example in rule.triggering {
            let (findings, _) = Self.run(example, of: rule)
            let own = findings.filter { $0.rule == id }
            #expect(!own.isEmpty, "\(id) does not fire on \(example.files.map(\.text))")
            for finding in own {
                #expect(finding.severity == rule.severity, "\(id): \(finding.message)")
                #expect(finding.line >= 1 && finding.column >= 1)
            }
        }
    }

    @Test(arguments: rules.map(\.id)) func doesNotFireOnItsOtherExamples(_ id: String) throws {
        let rule = try #require(LintRuleCatalog.rule(id: id))
        for example in rule.nonTriggering {
            let (findings, checked) = Self.run(example, of: rule)
            #expect(
                !findings.contains { $0.rule == id }, "\(id) fires on \(example.files.map(\.text)): \(findings.map(\.message))")
            // The example's query was checked: a skipped site would not fire anything either.
            #expect(checked >= 1, "\(id): the example's query was not checked")
        }
    }

    /// At least one example puts the model in one file and the query in another, and the finding is
    /// in the query's file.
    @Test func someExamplesQueryAModelDeclaredInAnotherFile() {
        var found = 0
        for rule in Self.rules {
            for example in rule.triggering where example.files.count > 1 {
                let modelFiles = Set(example.files.filter { $0.text.contains("@Model") }.map(\.path))
                let (findings, _) = Self.run(example, of: rule)
                found += findings.filter { $0.rule == rule.id && !modelFiles.contains($0.file) }.count
            }
        }
        #expect(found >= 10)
    }

    /// `static let x: DiagnosticCode = "…"` in the files of the checker and the lint.
    static func declaredCodes() throws -> Set<String> {
        let root = GoldenFile.repositoryRoot.appendingPathComponent("Sources")
        var files = [root.appendingPathComponent("PredicateQuery/Checking/CheckDiagnostics.swift")]
        for folder in ["PredicateQueryModels/SwiftPredicate", "PredicateQueryModels/Lint"] {
            let url = root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: url.path)
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".swift") { files.append(url.appendingPathComponent(relative)) }
            }
        }
        var codes: Set<String> = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": DiagnosticCode = \"") {
                let parts = line.split(separator: "\"")
                if parts.count >= 2 { codes.insert(String(parts[1])) }
            }
        }
        return codes
    }

    @Test func everyDeclaredCodeBelongsToExactlyOneRule() throws {
        let declared = try Self.declaredCodes()
        #expect(declared.count >= 40, "the scan found the checker's and the lint's codes")
        for code in declared {
            let claiming = Self.rules.filter { $0.codes.contains(DiagnosticCode(rawValue: code)) }.map(\.id)
            #expect(claiming.count == 1, "\(code) is claimed by \(claiming)")
        }
        // And the rules claim nothing that is not declared.
        for rule in Self.rules {
            for code in rule.codes { #expect(declared.contains(code.rawValue), "\(rule.id) claims \(code)") }
        }
    }

    @Test func aCodeNoRuleClaimsFallsBackToInvalidPredicate() {
        #expect(LintRuleCatalog.rule(for: "check.somethingNew").id == "invalid-predicate")
        #expect(LintRuleCatalog.rule(for: .swiftNilInequality).id == "nil-inequality")
    }

    @Test func misspelledIDsGetASuggestion() {
        #expect(LintRuleCatalog.suggestion(for: "nil-inequalty") == "nil-inequality")
        #expect(LintRuleCatalog.unknownRuleMessage("computed-propety").contains("did you mean 'computed-property'?"))
        #expect(LintRuleCatalog.suggestion(for: "zzzzzz") == nil)
    }

    /// Documentation/Lint.md holds `LintRuleCatalog.markdown()` between its markers (PQ_UPDATE_GOLDEN=1 rewrites it).
    @Test func theDocumentationListsTheCatalog() throws {
        let url = GoldenFile.repositoryRoot.appendingPathComponent("Documentation/Lint.md")
        var text = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- rule catalog: generated from LintRuleCatalog; PQ_UPDATE_GOLDEN=1 rewrites it -->\n"
        let end = "<!-- end of the rule catalog -->"
        var start = try #require(text.range(of: begin))
        var stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let generated = LintRuleCatalog.markdown()
        if GoldenFile.isUpdating {
            text = text.replacingCharacters(in: start.upperBound..<stop.lowerBound, with: generated + "\n")
            try text.write(to: url, atomically: true, encoding: .utf8)
            start = try #require(text.range(of: begin))
            stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        }
        #expect(String(text[start.upperBound..<stop.lowerBound]) == generated + "\n")
    }
}
