// NSPredicate-style format strings: arguments become parameters or checked key
// paths, never text; mistakes point into the format string.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct PredicateFormatTests {
    @Test func theIssuesExampleExpandsToParametersAndAKeyPath() throws {
        let expansion = PredicateFormat.expand("%K == %@ AND limit > %d", ["name", "Rent", 100])
        #expect(expansion.diagnostics.isEmpty)
        #expect(expansion.text == "`name` == $pq_arg2 AND limit > $pq_arg3")
        #expect(expansion.parameterValues == ["pq_arg2": .single(.string("Rent")), "pq_arg3": .single(.int(100))])
        let query = try #require(Parser.parse(expansion.text).query)
        #expect(query.syntaxDump == Parser.parse("name == $pq_arg2 && limit > $pq_arg3").query?.syntaxDump)
    }

    @Test func specifiersInsideQuotesAndDoublePercentStayText() {
        let expansion = PredicateFormat.expand("name like '%@*' AND limit %% 2 == %d", [1])
        #expect(expansion.text == "name like '%@*' AND limit % 2 == $pq_arg1")
        #expect(expansion.diagnostics.isEmpty)
    }

    @Test func keyPathsAreEscapedNamesAndAreChecked() {
        let expansion = PredicateFormat.expand("%K == %@", ["budget.name", "Travel"])
        #expect(expansion.text == "`budget`.`name` == $pq_arg2")
        let schema = ExampleSchemas.combined
        let result = QueryCompiler.compile(
            "Transaction where " + expansion.text, schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
        #expect(result.compiled != nil)
        // A %K argument is a name, never SQL or query text.
        for hostile in ["name; DROP TABLE ZBUDGET", "name == 'x' OR 1", "", "a..b", "name`"] {
            let bad = PredicateFormat.expand("%K == 1", [.value(.string(hostile))])
            #expect(bad.diagnostics.map(\.message) == ["the argument of the 1st '%K' must be a key path such as 'budget.name'"])
        }
        // A reserved word is a fine property name through %K.
        #expect(PredicateFormat.expand("%K == 1", ["in"]).text == "`in` == 1")
    }

    @Test func nilBecomesTheNilLiteralAndListsBindAsLists() {
        #expect(PredicateFormat.expand("budget == %@", [nil]).text == "budget == nil")
        let list = PredicateFormat.expand("name IN %@", [.list([.string("Rent"), .string("Travel")])])
        #expect(list.parameterValues == ["pq_arg1": .list([.string("Rent"), .string("Travel")])])
    }

    @Test func numberSpecifiersConvertOrComplain() {
        #expect(PredicateFormat.expand("limit > %f", [100]).parameterValues == ["pq_arg1": .single(.double(100))])
        #expect(PredicateFormat.expand("age > %ld", [.text("42")]).parameterValues == ["pq_arg1": .single(.int(42))])
        #expect(PredicateFormat.expand("age > %d", ["old"]).diagnostics.map(\.message) == ["the argument of the 1st '%d' must be an integer"])
        #expect(PredicateFormat.expand("age > %d", [2.5]).diagnostics.count == 1)
    }

    @Test func argumentCountMismatchesPointIntoTheFormat() {
        let missing = PredicateFormat.expand("name == %@ AND limit > %d", ["Rent"])
        #expect(missing.diagnostics.map(\.message) == ["'%d' has no argument; the format needs more than the 1 given"])
        #expect(missing.diagnostics.first?.span == SourceSpan(start: 23, end: 25))
        let extra = PredicateFormat.expand("name == %@", ["Rent", 1])
        #expect(extra.diagnostics.map(\.message) == ["2 arguments were given, but the format uses 1"])
        let unknown = PredicateFormat.expand("name == %s", ["Rent"])
        #expect(unknown.diagnostics.first?.message == "'%s' is not a format specifier pq knows; use %@, %K, %d, %f or %%")
        let rendered = DiagnosticRenderer(fileName: "<format>").render(missing.diagnostics, in: "name == %@ AND limit > %d")
        #expect(rendered.contains("<format>:1:24: error:"))
        #expect(rendered.contains("^~"))
    }
}
