// The work instructions.sh has callgrind count is the work the timed benchmarks
// time: every SPEC example compiles, and the Foundation build refuses exactly the
// examples the Foundation benchmark reports as refused, with the same reason.

import Testing

@testable import PQBenchmarks

struct InstructionCountTests {
    @Test func everyExampleCompiles() throws {
        for query in CompileBenchmark.specExamples {
            #expect(throws: Never.self, "\(query)") { _ = try InstructionCount.prepare(.compile, query) }
        }
    }

    @Test func theFoundationBuildRefusesWhatTheBenchmarkRefuses() {
        for measurement in FoundationPredicateBenchmark.buildTimes(batches: 1) {
            let refusal: String?
            do {
                _ = try InstructionCount.prepare(.foundation, measurement.query)
                refusal = nil
            } catch {
                refusal = error.description
            }
            switch measurement.result {
            case .success: #expect(refusal == nil, "\(measurement.query): \(refusal ?? "")")
            case .failure(let expected): #expect(refusal == expected.reason, "\(measurement.query)")
            }
        }
    }

    @Test func aQueryThatDoesNotCheckIsRefusedWithItsError() {
        #expect(throws: InstructionCount.Refusal.self) { _ = try InstructionCount.prepare(.compile, "nosuchthing > 1") }
    }

    @Test func theRepetitionsRunTheWorkThatManyTimes() {
        var runs = 0
        InstructionCount.measuredRepetitions(7) { runs += 1 }
        #expect(runs == 7)
    }
}
