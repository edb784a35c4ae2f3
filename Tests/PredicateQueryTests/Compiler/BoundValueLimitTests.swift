// The bound-value limit (SQLite's SQLITE_MAX_VARIABLE_NUMBER) is checked on the
// checked query, before lowering: a query over it is refused in the time it takes
// to check, with the message running it used to give after lowering it in full.

import Testing

@testable import PredicateQuery

struct BoundValueLimitTests {
    static let schema = BindingStorageTests.schema

    @Test func boundValuesAreCountedBeforeLowering() throws {
        let mapping = StoreMapping.make(for: Self.schema, layout: .plain)
        let text = "Item where name in {'a', 'b'} || size > 3 || name == $n || name in $names || score == nil"
        let checked = try #require(QueryCompiler.compile(text, schema: Self.schema, mapping: mapping).checked)
        // 'a', 'b', 3, $n and $names (one, until its values are known); `== nil` binds nothing.
        #expect(checked.boundValueCount == 5)
        #expect(try SQLLowering.lower(checked, mapping: mapping).bindings.count == 5)
    }

    @Test func aQueryOverTheBoundValueLimitIsRefusedBeforeLowering() throws {
        let mapping = StoreMapping.make(for: Self.schema, layout: .plain)
        // Four lists of 9,000 literals: 36,000 values, as many as the store test's query.
        let lists = (0..<4).map { list in "name in {" + (0..<9_000).map { "'n\(list)-\($0)'" }.joined(separator: ", ") + "}" }
        let result = QueryCompiler.compile("Item where " + lists.joined(separator: " || "), schema: Self.schema, mapping: mapping)
        #expect(result.compiled == nil)
        #expect(result.checked != nil)
        let refusal = try #require(result.diagnostics.last)
        #expect(refusal.code == DiagnosticCode.tooManyBoundValues)
        // The message `BindingResolver` gives when such a query is run.
        #expect(refusal.message == "the query needs 36000 bound values; SQLite allows at most 32766 in one query")
    }
}
