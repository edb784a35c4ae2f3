// The fuzz target, run by `swift test`: every committed regression input in
// Fuzz/Regressions/ and every example of the grammar goes through the whole
// pipeline with all invariants holding. The examples also show that the fuzzer's
// seeds reach SQLite, so fuzzing explores execution, not only parsing.

import Foundation
import PredicateQueryFuzzing
import PredicateQueryTestSupport
import Testing

struct FuzzPipelineTests {
    static let regressionsDirectory = GoldenFile.repositoryRoot.appendingPathComponent("Fuzz/Regressions")

    /// The committed regression inputs, by file name.
    static var regressions: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: regressionsDirectory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted()
    }

    @Test("every regression input keeps every invariant", arguments: regressions)
    func regressionInputKeepsTheInvariants(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.regressionsDirectory.appendingPathComponent(name)))
        let outcome = FuzzPipeline.run(bytes)
        #expect(outcome.violations.isEmpty, "Fuzz/Regressions/\(name): \(outcome.violations.joined(separator: "\n"))")
    }

    @Test func theGrammarExamplesKeepTheInvariantsAndTwoThirdsReachSQLite() throws {
        let file = GoldenFile.repositoryRoot.appendingPathComponent("Grammar/examples.pq")
        let examples = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        var executed = 0
        for example in examples {
            let outcome = FuzzPipeline.run(Array(example.utf8))
            #expect(outcome.violations.isEmpty, "\(example): \(outcome.violations.joined(separator: "\n"))")
            if outcome.stage == .executed { executed += 1 }
        }
        #expect(examples.count > 100)
        #expect(executed * 3 > examples.count * 2, "only \(executed) of \(examples.count) examples reached SQLite")
    }

    @Test func eachInputStopsAtTheStageThatRejectsIt() {
        #expect(FuzzPipeline.run(Array("limit >".utf8)).stage == .rejectedByParser)
        #expect(FuzzPipeline.run(Array("nosuchattribute > 1".utf8)).stage == .rejectedByChecker)
        #expect(FuzzPipeline.run(Array("Budget where limit > 100".utf8)).stage == .executed)
        #expect(FuzzPipeline.run([0xFF, 0xFE, 0x00, 0x27]).stage == .rejectedByParser)
    }
}
