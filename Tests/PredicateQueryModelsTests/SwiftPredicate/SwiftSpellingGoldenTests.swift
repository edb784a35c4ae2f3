// Every example of Grammar/examples.pq with a Swift spelling: Golden/SwiftSpellings.txt
// holds, for each example (`> text`), its `#Predicate` closure (in a
// `FetchDescriptor(predicate:sortBy:)` when it sorts) or why Swift has
// none (`(no Swift spelling: …)`). Each spelling, read by the Swift front end,
// gives the text's tree; where the example checks against the example models,
// the same typed tree and the same SQL. Regenerate the drafts with
// PQ_UPDATE_GOLDEN=1 and read the diff.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryModels
import PredicateQueryTestSupport
import Testing

struct SwiftSpellingGoldenTests {
    static let goldenPath = "SwiftSpellings.txt"
    static let target = "PredicateQueryModelsTests"

    static let examples: [String] = {
        let url = GoldenFile.repositoryRoot.appendingPathComponent("Grammar/examples.pq")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }()

    static let cases = GoldenFile.cases(goldenPath, target: target)
    static let schema = ExampleSchemas.combined
    static let mapping = StoreMapping.make(for: schema, layout: .coreData)

    @Test func everyExampleHasACase() {
        if GoldenFile.isUpdating {
            let url = GoldenFile.directory(of: Self.target).appendingPathComponent(Self.goldenPath)
            var text = "# Swift spellings of Grammar/examples.pq (see SwiftSpellingGoldenTests).\n\n"
            for example in Self.examples {
                let spelling: String
                if let query = Parser.parse(example).query {
                    switch SwiftSpelling.spell(query) {
                    case .success(let swift): spelling = swift
                    case .failure(let why): spelling = "(no Swift spelling: \(why.reason))"
                    }
                } else {
                    spelling = "(no Swift spelling: does not parse)"
                }
                text += "> \(example)\n\(spelling)\n\n"
            }
            try? text.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(Self.examples.count > 150)
        #expect(Set(Self.cases.map(\.input)) == Set(Self.examples))
        let spelled = Self.cases.filter { !$0.expected.hasPrefix("(no Swift spelling") }.count
        print("Swift spellings: \(spelled) of \(Self.cases.count) examples")
        #expect(spelled >= 100)
    }

    @Test(arguments: cases.filter { !$0.expected.hasPrefix("(no Swift spelling") })
    func swiftSpellingGivesTheSameTreeAndSQL(_ golden: GoldenCase) throws {
        // Limit and offset are set on a FetchDescriptor after it is made: compared without them.
        var text = try #require(Parser.parse(golden.input).query)
        text.limit = nil
        text.offset = nil
        let read = SwiftPredicate.parse(golden.expected)
        let swift = try #require(read.query, "\(read.diagnostics.map(\.message))")
        #expect(swift.entity?.text == text.entity?.text)
        let textChecked = TypeChecker.check(text, schema: Self.schema)
        let swiftChecked = TypeChecker.check(swift, schema: Self.schema)
        guard let checked = textChecked.query else {
            // Not valid against the example models: the same syntax tree, and the same verdict.
            #expect(swiftChecked.query == nil)
            #expect(swift.syntaxDump == text.syntaxDump || Self.hasNestedAnonymousClosure(golden.expected))
            return
        }
        let swiftQuery = try #require(swiftChecked.query, "\(swiftChecked.diagnostics.map(\.message))")
        #expect(swiftQuery.typedDump == checked.typedDump)
        let sql = [checked, swiftQuery].map { try? SQLLowering.lower($0, mapping: Self.mapping).sql }
        #expect(sql[0] == sql[1])
    }

    /// `$0` of a closure inside another is named `e2` by the Swift front end (as the bridge does), `0` by the text.
    static func hasNestedAnonymousClosure(_ swift: String) -> Bool {
        swift.components(separatedBy: "{ $").count > 1 && swift.components(separatedBy: "{").count > 3
    }
}
