// Golden tests for lowering: for every form of SPEC §4, the SQL, the values bound,
// and the rows it returns on the example data (Core Data layout), and the SQL the
// same query becomes on PostgreSQL (plain layout, as PostgresStore lays tables out),
// or why PostgreSQL refuses it. The files are
// Golden/Lowering/*.txt; PQ_UPDATE_GOLDEN=1 rewrites them, and the diff is read
// before it is committed.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import PredicateQueryTestSupport
import Testing

struct LoweringGoldenTests {
    static let files = ["Lowering/SpecForms.txt"]

    static func output(for input: String, entity: String?, store: SQLiteStore) -> String {
        let result = QueryCompiler.compile(input, schema: store.schema, mapping: store.mapping, defaultEntity: entity)
        guard let compiled = result.compiled else {
            return DiagnosticRenderer().render(result.diagnostics, in: input).trimmingCharacters(in: .newlines)
        }
        var lines = ["sql: " + compiled.sql]
        var postgresMapping = StoreMapping.make(for: store.schema, layout: .plain)
        postgresMapping.database = .postgreSQL
        let onPostgres = QueryCompiler.compile(input, schema: store.schema, mapping: postgresMapping, defaultEntity: entity)
        if let postgres = onPostgres.compiled {
            lines.append("postgresql: " + postgres.sql)
        } else {
            lines.append("postgresql: " + (onPostgres.diagnostics.first { $0.severity == .error }?.message ?? "no SQL"))
        }
        do {
            let resolved = try BindingResolver.resolve(compiled, parameters: [:], environment: ExampleStore.environment)
            lines.append("bindings: " + resolved.values.map(\.description).joined(separator: ", "))
            let rows = try store.fetch(compiled, environment: ExampleStore.environment)
            lines.append(
                "rows (\(rows.count)): " + rows.map { ExampleStore.describe($0, schema: store.schema) }.joined(separator: "; "))
        } catch {
            lines.append("error: \(error)")
        }
        return lines.joined(separator: "\n")
    }

    @Test("SQL, bindings and rows of every SPEC §4 form", arguments: files)
    func specForms(_ file: String) throws {
        let (store, _) = try ExampleStore.make()
        let cases = GoldenFile.cases(file, target: "PredicateQuerySQLiteTests")
        #expect(cases.count >= 60)
        var outputs: [Int: String] = [:]
        for golden in cases {
            let actual = Self.output(for: golden.input, entity: golden.entity, store: store)
            outputs[golden.line] = actual
            if !GoldenFile.isUpdating {
                #expect(actual == golden.expected, "\(golden.testDescription)")
            }
        }
        if GoldenFile.isUpdating { GoldenFile.update(file, target: "PredicateQuerySQLiteTests", outputs: outputs) }
    }
}
