// Golden tests for NSPredicate format strings (`PredicateFormat`): each case is a
// format and its arguments as words on a command line (`← word`), typed by the
// query as `pq --predicate-format` types them. Valid cases give the typed IR, the
// SQL, the values bound and the rows on the example data, and the reference
// evaluator must select the same rows; invalid ones give the exact diagnostics,
// pointing into the format string. Files: Golden/Formats/*.txt (PQ_UPDATE_GOLDEN=1
// rewrites them; read the diff before committing).

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import PredicateQueryTestSupport
import Testing

struct FormatStringGoldenTests {
    /// The format and its arguments of a case's input: `FORMAT ← arg ← arg`.
    static func split(_ input: String) -> (format: String, arguments: [FormatArgument]) {
        let parts = input.components(separatedBy: " ← ")
        return (parts[0], parts.dropFirst().map { .text($0) })
    }

    /// The output a case is compared with; `agree` is false if the store and the evaluator differ.
    static func output(for input: String, entity: String?, store: SQLiteStore, graph: ObjectGraph) -> (String, Bool) {
        let (format, arguments) = split(input)
        let renderer = DiagnosticRenderer(fileName: "<format>")
        let expansion = PredicateFormat.expand(format, arguments)
        func rendered(_ diagnostics: [Diagnostic]) -> String {
            renderer.render(expansion.originalDiagnostics(diagnostics), in: format).trimmingCharacters(in: .newlines)
        }
        guard expansion.diagnostics.isEmpty else {
            return (renderer.render(expansion.diagnostics, in: format).trimmingCharacters(in: .newlines), true)
        }
        let result = QueryCompiler.compile(expansion.text, schema: store.schema, mapping: store.mapping, defaultEntity: entity)
        guard let compiled = result.compiled, let checked = result.checked else { return (rendered(result.diagnostics), true) }
        let (values, problems) = expansion.parameterValues(for: checked.parameters)
        guard problems.isEmpty else {
            return (renderer.render(problems, in: format).trimmingCharacters(in: .newlines), true)
        }
        var lines = [checked.typedDump]
        var agree = true
        do {
            // The statement that runs with these values (an equality with a parameter
            // is `=` or `IS` by the value bound).
            let resolved = try BindingResolver.resolve(compiled, parameters: values, environment: ExampleStore.environment)
            lines.append("sql: " + resolved.sql)
            lines.append("bindings: " + resolved.values.map(\.description).joined(separator: ", "))
            let rows = try store.fetch(compiled, parameters: values, environment: ExampleStore.environment)
            lines.append(
                "rows (\(rows.count)): " + rows.map { ExampleStore.describe($0, schema: store.schema) }.joined(separator: "; "))
            let evaluated = try Evaluator(graph: graph, parameters: values, environment: ExampleStore.environment).run(checked)
            agree = evaluated == rows.map(\.id)
        } catch {
            lines.append("error: " + expansion.reworded("\(error)"))
        }
        return (lines.joined(separator: "\n"), agree)
    }

    static func run(_ file: String, expectValid: Bool) throws {
        let (store, graph) = try ExampleStore.make()
        let cases = GoldenFile.cases(file, target: "PredicateQuerySQLiteTests")
        #expect(cases.count >= 10, "\(file) has only \(cases.count) cases")
        var outputs: [Int: String] = [:]
        for golden in cases {
            let (actual, agree) = output(for: golden.input, entity: golden.entity, store: store, graph: graph)
            outputs[golden.line] = actual
            #expect(agree, "\(golden.testDescription): the store and the evaluator disagree")
            #expect(
                actual.contains(": error: ") != expectValid,
                "\(golden.testDescription): expected it to be \(expectValid ? "valid" : "invalid")\n\(actual)")
            // The typed IR shows pq's parameters; a diagnostic never does.
            let messages = actual.split(separator: "\n").filter { $0.contains("error:") || $0.hasPrefix("note:") }
            #expect(
                !messages.contains { $0.contains("$" + PredicateFormat.parameterPrefix) },
                "\(golden.testDescription) names pq's parameters")
            if !GoldenFile.isUpdating { #expect(actual == golden.expected, "\(golden.testDescription)") }
        }
        if GoldenFile.isUpdating { GoldenFile.update(file, target: "PredicateQuerySQLiteTests", outputs: outputs) }
    }

    @Test func validFormatStringsCheckLowerAndRun() throws {
        try Self.run("Formats/FormatStrings.valid.txt", expectValid: true)
    }

    @Test func invalidFormatStringsPointIntoTheFormat() throws {
        try Self.run("Formats/FormatStrings.invalid.txt", expectValid: false)
    }
}
