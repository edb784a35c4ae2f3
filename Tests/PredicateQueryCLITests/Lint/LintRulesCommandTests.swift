// `pq lint --rules` and `--explain RULE`, from the real binary: every rule of the
// catalog on a line of its own, and one rule's explanation, evidence and examples.

import Foundation
import PredicateQueryModels
import PredicateQueryTestSupport
import Testing

struct LintRulesCommandTests {
    @Test func rulesListsEveryRuleWithItsSeverity() throws {
        let result = try PQProcess.run(["lint", "--rules"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == LintRuleCatalog.all.count + 1)
        for (line, rule) in zip(lines, LintRuleCatalog.all) {
            let words = line.split(separator: " ")
            #expect(words.first.map(String.init) == rule.id)
            #expect(words.dropFirst().first.map(String.init) == rule.severity.rawValue)
            #expect(line.contains(rule.summary))
        }
    }

    @Test func explainPrintsOneRuleWithItsExamples() throws {
        let result = try PQProcess.run(["lint", "--explain=member-of-to-many"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("member-of-to-many (error)\n"))
        #expect(result.output.contains("Evidence: "))
        #expect(result.output.contains("Every example has Models.swift:\n  import SwiftData"))
        #expect(
            result.output.contains(
                "Fires on:\n  // Query.swift\n  import SwiftData\n\n  let beach = #Predicate<Trip> { $0.tags.name == \"beach\" }")
        )
        #expect(result.output.contains("Does not fire on:\n"))
    }

    @Test func optionsTakeTheirValueAfterAnEqualsSign() throws {
        let result = try PQProcess.run(
            ["lint", "--format=json", "Examples/TripPlanner/Models"], directory: GoldenFile.repositoryRoot)
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(object?["errors"] as? Int == 0)
    }
}
