// The random query generator the differential tests run (SQLite's and
// PostgreSQL's) writes every string operator of `StringOperator`'s table: a new
// operator the generator never writes would go untested against the evaluator,
// so this fails, naming it (issue 25; the other stages are in the CLI tests'
// `OperatorTableTests`).

import PredicateQuery
import PredicateQueryStoreTestSupport
import Testing

struct GeneratorOperatorTests {
    @Test func theGeneratorWritesEveryStringOperator() {
        var seen: Set<StringOperator> = []
        for (_, schema) in DifferentialInputs.schemas {
            var generator = RandomQueryGenerator(schema: schema, seed: 25)
            for index in 0..<1_000 {
                let text = generator.query(for: schema.entities[index % schema.entities.count]).lowercased()
                for op in StringOperator.allCases where text.contains(" \(op.keyword) ") || text.contains(" \(op.keyword)[") {
                    seen.insert(op)
                }
            }
        }
        for op in StringOperator.allCases where !seen.contains(op) {
            Issue.record("'\(op.keyword)', random query generator: no generated query uses it")
        }
    }
}
