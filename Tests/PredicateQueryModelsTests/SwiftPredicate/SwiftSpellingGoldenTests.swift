// Every example of Grammar/examples.pq with a Swift spelling: Golden/SwiftSpellings.txt
// holds, for each example (`> text`), its `#Predicate` closure (in a
// `FetchDescriptor(predicate:sortBy:)` when it sorts, `FetchDescriptor<T>()`
// when it has neither). Every example has one: Foundation's API where it has
// one, pq's documented spellings (Documentation/CheckYourApp.md) where Swift has
// none. Each spelling, read by the Swift front end, gives the text's tree;
// where the example checks against the example models, the same typed tree
// and the same SQL. A spelling may be followed by a `differs: …` line saying
// precisely why its tree cannot be the text's; the test checks that the
// difference is still the one stated (the text is refused, the Swift is not).
// Regenerate the drafts with PQ_UPDATE_GOLDEN=1 (the `differs:` lines are
// kept) and read the diff.

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
            let notes = Dictionary(
                Self.cases.compactMap { golden in Self.differs(golden).map { (golden.input, $0) } },
                uniquingKeysWith: { a, _ in a })
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
                text += "> \(example)\n\(spelling)\n" + (notes[example].map { "differs: \($0)\n" } ?? "") + "\n"
            }
            try? text.write(to: url, atomically: true, encoding: .utf8)
        }
        #expect(Self.examples.count > 150)
        #expect(Set(Self.cases.map(\.input)) == Set(Self.examples))
        // Every example is spelled: no escape.
        let unspelled = Self.cases.filter { $0.expected.hasPrefix("(no Swift spelling") }.map(\.input)
        #expect(unspelled.isEmpty, "examples without a Swift spelling: \(unspelled)")
        let differing = Self.cases.filter { Self.differs($0) != nil }.count
        print(
            "Swift spellings: \(Self.cases.count - unspelled.count) of \(Self.cases.count) examples, \(differing) with a stated difference"
        )
        #expect(differing <= 2)
    }

    /// The `differs: …` note after a spelling, if any.
    static func differs(_ golden: GoldenCase) -> String? {
        golden.expected.components(separatedBy: "\n").first { $0.hasPrefix("differs: ") }.map { String($0.dropFirst(9)) }
    }

    @Test(arguments: cases)
    func swiftSpellingGivesTheSameTreeAndSQL(_ golden: GoldenCase) throws {
        // Limit and offset are set on a FetchDescriptor after it is made: compared without them.
        var text = try #require(Parser.parse(golden.input).query)
        text.limit = nil
        text.offset = nil
        let spelling = golden.expected.components(separatedBy: "\n").filter { !$0.hasPrefix("differs: ") }.joined(separator: "\n")
        let read = SwiftPredicate.parse(spelling)
        let swift = try #require(read.query, "\(read.diagnostics.map(\.message))")
        #expect(swift.entity?.text == text.entity?.text)
        let textChecked = TypeChecker.check(text, schema: Self.schema)
        let swiftChecked = TypeChecker.check(swift, schema: Self.schema)
        if Self.differs(golden) != nil {
            // The stated difference: the text's form is refused, the Swift closure checks.
            #expect(textChecked.query == nil)
            #expect(swiftChecked.query != nil)
            return
        }
        guard let checked = textChecked.query else {
            // Not valid against the example models: the same syntax tree, and the same verdict.
            #expect(swiftChecked.query == nil)
            #expect(swift.syntaxDump == text.syntaxDump || Self.hasNestedAnonymousClosure(spelling))
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
