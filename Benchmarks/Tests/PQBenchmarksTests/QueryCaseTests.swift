// On a small generated store, every approach of every benchmark query selects the
// same rows as pq (the benchmark checks this too, before it times anything), and
// each query selects some rows but not all, so the timings compare real work.

import Foundation
import Testing

@testable import PQBenchmarks

struct QueryCaseTests {
    @Test func everyApproachSelectsWhatPQSelects() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pq-bench-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try DataGenerator.generate(at: path, scale: 20_000)
        let report = try QueryBenchmark.run(storeAt: path, repetitions: 1, inMemoryRepetitions: 1, log: { _ in })
        #expect(report.budgets == 20_000)
        #expect((180_000...220_000).contains(report.transactions))
        #expect(report.measurements.count == QueryCase.all(scale: 20_000).count)
        for measurement in report.measurements {
            #expect(measurement.rows > 0, "\(measurement.name) selects nothing")
            #expect(measurement.rows < report.transactions, "\(measurement.name) selects everything")
        }
    }

    @Test func generatedPredicatesHaveTheNodesTheyClaim() {
        let (text, nodes) = CompileBenchmark.generated(nodes: 1_000)
        #expect(nodes >= 1_000 && nodes < 1_010)
        #expect(text.hasPrefix("Budget where (limit > 0 && name contains 'n0') || (limit > 1"))
        let (literals, literalNodes) = CompileBenchmark.generated(.literals, nodes: 1_000)
        #expect(literalNodes >= 1_000 && literalNodes < 1_004)
        #expect(literals.hasPrefix("Budget where name == 'v0' || name == 'v1' || "))
        let (plain, plainNodes) = CompileBenchmark.generated(.noLiterals, nodes: 1_000)
        #expect(plainNodes >= 1_000 && plainNodes < 1_004)
        #expect(plain.hasPrefix("Budget where limit > limit || limit > limit || ") && !plain.contains("'"))
    }
}

struct FoundationPredicateBenchmarkTests {
    @Test func pqsPredicatesSelectWhatTheHandWrittenOnesSelect() throws {
        // evaluationTimes throws if the two predicates of a case select differently.
        let measurements = try FoundationPredicateBenchmark.evaluationTimes(count: 2_000, repetitions: 1)
        #expect(measurements.count == 5)
        for measurement in measurements {
            #expect(measurement.selected > 0 && measurement.selected < measurement.objects, "\(measurement.name)")
        }
    }

    @Test func mostSpecExamplesBuildAPredicate() {
        let built = FoundationPredicateBenchmark.buildTimes(batches: 1).filter { if case .success = $0.result { true } else { false } }
        #expect(built.count >= 10, "\(built.count) of \(CompileBenchmark.specExamples.count)")
    }
}
