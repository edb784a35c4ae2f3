// Golden tests for the checker: valid queries with their typed IR, invalid ones
// with their exact rendered diagnostics, over every example schema.
//
// Files: Golden/Checking/<Schema>.valid.txt and <Schema>.invalid.txt, where
// <Schema> is a folder of Examples/Models (or Combined, the example store's union).

import PredicateQueryExamples
import PredicateQueryTestSupport
import Testing

@testable import PredicateQuery

struct CheckerGoldenTests {
    static let schemas: [String: Schema] = Dictionary(
        uniqueKeysWithValues: ExampleSchemas.byName.map { ($0.name, $0.schema) } + [("Combined", ExampleSchemas.combined)])

    /// The output a case is compared with: the typed dump (and any warnings) or the diagnostics.
    static func output(for input: String, entity: String?, schema: Schema) -> String {
        let renderer = DiagnosticRenderer()
        let parsed = Parser.parse(input)
        guard let query = parsed.query else { return renderer.render(parsed.diagnostics, in: input).trimmingSuffixNewlines }
        let checked = TypeChecker.check(query, schema: schema, defaultEntity: entity)
        let diagnostics = renderer.render(checked.diagnostics, in: input)
        guard let result = checked.query else { return diagnostics.trimmingSuffixNewlines }
        return (result.typedDump + "\n" + diagnostics).trimmingSuffixNewlines
    }

    static func files(_ suffix: String) -> [String] {
        schemas.keys.sorted().map { "Checking/\($0).\(suffix).txt" }
    }

    static func run(_ file: String, expectValid: Bool) {
        let name = String(file.dropFirst("Checking/".count).prefix { $0 != "." })
        guard let schema = schemas[name] else {
            Issue.record("no schema named \(name)")
            return
        }
        let cases = GoldenFile.cases(file, target: "PredicateQueryTests")
        var outputs: [Int: String] = [:]
        for golden in cases {
            let actual = output(for: golden.input, entity: golden.entity, schema: schema)
            outputs[golden.line] = actual
            let isValid = !actual.contains(": error: ")
            #expect(
                isValid == expectValid,
                "\(golden.testDescription): expected it to be \(expectValid ? "valid" : "invalid")\n\(actual)")
            if !GoldenFile.isUpdating {
                #expect(actual == golden.expected, "\(golden.testDescription)")
            }
        }
        if GoldenFile.isUpdating { GoldenFile.update(file, target: "PredicateQueryTests", outputs: outputs) }
    }

    @Test("valid queries check to their typed IR", arguments: files("valid"))
    func validQueries(_ file: String) {
        Self.run(file, expectValid: true)
    }

    @Test("invalid queries give their exact diagnostics", arguments: files("invalid"))
    func invalidQueries(_ file: String) {
        Self.run(file, expectValid: false)
    }

    @Test func goldenFilesHaveEnoughCases() {
        let valid = Self.files("valid").flatMap { GoldenFile.cases($0, target: "PredicateQueryTests") }
        let invalid = Self.files("invalid").flatMap { GoldenFile.cases($0, target: "PredicateQueryTests") }
        #expect(valid.count >= 150, "only \(valid.count) valid cases")
        #expect(invalid.count >= 80, "only \(invalid.count) invalid cases")
        let codes = Set(
            invalid.flatMap { golden in
                golden.expected.split(separator: "\n").compactMap { line -> String? in
                    guard line.contains(": error: "), let open = line.lastIndex(of: "["), line.hasSuffix("]") else { return nil }
                    return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
                }
            })
        let checkCodes: [DiagnosticCode] = [
            .unknownEntity, .ambiguousEntity, .unknownProperty, .computedProperty, .transientProperty, .typeMismatch,
            .notOrderable, .notAString, .modifierNotApplicable, .toManyWithoutQuantifier, .quantifierWithoutToMany,
            .quantifierAmbiguous, .unknownEnumCase, .enumCaseWithoutContext, .invalidRegex, .parameterTypeConflict,
            .parameterTypeUnknown, .closureArgumentOutsideClosure, .unqueryableAttribute, .sortByToMany, .unsortableKey,
            .notABoolean, .invalidLiteral, .invalidMembership, .invalidMemberAccess, .invalidArithmetic,
            .invalidNilComparison, .relationshipComparison, .notACollection, .invalidAggregate, .filterNotACondition,
        ]
        for code in checkCodes {
            #expect(codes.contains(code.rawValue), "no golden case for \(code)")
        }
    }
}

extension String {
    var trimmingSuffixNewlines: String {
        var copy = self
        while copy.hasSuffix("\n") { copy.removeLast() }
        return copy
    }
}
