// Date arithmetic on a live PostgreSQL store with a clock's `now()`: the moment is
// finer than the microsecond timestamptz holds, so the store takes it to a whole
// microsecond rather than refusing it, and the rows are the evaluator's.
// Skips with a notice when no server can be started.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryPostgres
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresDateArithmeticTests {
    @Test func nowFinerThanAMicrosecondComputesAsTheEvaluatorDoes() throws {
        // Finer than a microsecond since 1970 and since 2001.
        let now = Date(timeIntervalSinceReferenceDate: 740_145_600.123_456_7)
        #expect(!PostgreSQLSupport.isWholeMicroseconds(now))
        let environment = QueryEnvironment(now: now, timeZone: TimeZone(identifier: "UTC") ?? .current)
        let graph = ExampleData.graph(fillerPerEntity: 0)
        _ = try PostgresTestServer.with { server in
            let store = try PostgresStore.create(server.conninfo(), schema: ExampleSchemas.combined)
            try store.insert(graph)
            for text in ["Transaction where date > now() - 30d", "Transaction where date + 1h <= now() - 2w"] {
                let compiled = try #require(
                    QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping).compiled, "\(text)")
                let rows = try store.fetch(compiled, environment: environment).map(\.id.key)
                let expected = try Evaluator(graph: graph, parameters: [:], environment: environment)
                    .run(compiled.query).map(\.key)
                #expect(rows == expected, "\(text)")
                #expect(!rows.isEmpty, "\(text): no rows to compare")
            }
        }
    }
}
