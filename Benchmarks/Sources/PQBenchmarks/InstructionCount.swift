// Instructions, not time: what one compile (text to SQL) or one Foundation build
// (text to `Predicate`) costs, counted by callgrind. On a shared machine the same
// binary's time moves by half from one minute to the next; its instruction count
// moves by about 1 %. `instructions.sh` runs `pq-bench repeat` under callgrind,
// counting only inside `measuredRepetitions`, at two repetition counts: the
// difference divided by the difference in repetitions is one repetition, without
// the process's set-up and the warm-up.

import PredicateQuery
import PredicateQueryExamples

public enum InstructionCount {
    /// What is repeated.
    public enum Work: String, CaseIterable, Sendable {
        /// `QueryCompiler.compile` against the example schema in the Core Data
        /// layout: what `pq-bench compile` times.
        case compile
        /// `ModelQuery(parsing:)` then `foundationPredicate()`, the model class found
        /// first: what `pq-bench foundation` times.
        case foundation
    }

    /// Why `query` has no compile or no Foundation predicate.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The work for `query`, done once already (a first run makes Swift's run-time
    /// metadata and pq's per-type tables, which repetitions then share).
    public static func prepare(_ work: Work, _ query: String) throws(Refusal) -> () -> Void {
        switch work {
        case .compile:
            let schema = ExampleSchemas.combined
            let mapping = StoreMapping.make(for: schema, layout: .coreData)
            let first = QueryCompiler.compile(query, schema: schema, mapping: mapping)
            guard first.compiled != nil else {
                throw Refusal(description: first.diagnostics.first?.message ?? "does not compile")
            }
            return { _ = QueryCompiler.compile(query, schema: schema, mapping: mapping) }
        case .foundation:
            let model: any QueryModel.Type
            do {
                model = try FoundationPredicateBenchmark.model(of: query)
                _ = try FoundationPredicateBenchmark.build(query, model)
            } catch let refusal as FoundationPredicateBenchmark.BuildRefusal {
                throw Refusal(description: refusal.reason)
            } catch {
                throw Refusal(description: "\(error)")
            }
            return { _ = try? FoundationPredicateBenchmark.build(query, model) }
        }
    }

    /// `once`, `count` times: the only function `instructions.sh` has callgrind count.
    @inline(never)
    public static func measuredRepetitions(_ count: Int, _ once: () -> Void) {
        for _ in 0..<count { once() }
    }
}
