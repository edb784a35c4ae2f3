// What the builder and the Foundation bridge cannot express is a clear error
// naming the construct, and what the checker rejects it rejects with the same
// diagnostic as for text: a computed property, whatever the front end.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery

private let threshold = 3

struct PredicateBridgeErrorTests {
    private func bridgeError<M>(_ predicate: Predicate<M>) -> String? {
        do {
            _ = try PredicateBridge.condition(predicate)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func unsupportedNodesAreNamed() {
        #expect(
            bridgeError(#Predicate<Budget> { ($0.limit > 100 ? $0.name : "x") == "Rent" })
                == "PredicateExpressions.Conditional is not supported by pq's #Predicate conversion")
        #expect(
            bridgeError(#Predicate<Budget> { $0.transactions.first?.amount == 1 })
                == "of a collection's properties, only count and isEmpty are supported")
        #expect(bridgeError(#Predicate<Budget> { $0.name.count > 3 })?.hasPrefix("cannot name the properties of key path") == true)
    }

    @Test func computedPropertiesGetTheTextDiagnosticFromEveryFrontEnd() throws {
        let schema = ExampleSchemas.moviesWorkaround
        let mapping = StoreMapping.make(for: schema, layout: .coreData)
        let fromText = QueryCompiler.compile("Movie where genre == .kids", schema: schema, mapping: mapping)
        let builder = WorkaroundMovie.filter { $0.genre == .kids }.compile(schema: schema, mapping: mapping)
        let kids = Genre.kids
        let bridged = try ModelQuery(#Predicate<WorkaroundMovie> { $0.genre == kids }).compile(schema: schema, mapping: mapping)
        for result in [fromText, builder, bridged] {
            #expect(result.compiled == nil)
            #expect(result.diagnostics.map(\.code) == [.computedProperty])
            #expect(result.diagnostics.first?.message == fromText.diagnostics.first?.message)
        }
        // The builder's diagnostics point into the query's text, with a caret.
        let rendered = DiagnosticRenderer().render(builder.diagnostics, in: WorkaroundMovie.filter { $0.genre == .kids }.text)
        #expect(
            rendered == """
                <input>:1:13: error: 'genre' is a computed property of 'Movie'; only stored properties can be queried [check.computedProperty]
                Movie where genre == .kids
                            ^~~~~
                note: 'genre' is computed from the stored property 'genreId'; query 'genreId' instead

                """)
    }

    @Test func keyPathsWithoutNamesAreReported() {
        let query = Budget.filter { $0.transactions.count > threshold }.sorted(by: \.transactions.count)
        let result = query.compile(schema: ExampleSchemas.combined, mapping: StoreMapping.make(for: ExampleSchemas.combined, layout: .coreData))
        #expect(result.compiled == nil)
        #expect(result.diagnostics.map { $0.code } == [.unsupportedConstruct])
        #expect(result.diagnostics.first?.message.contains("cannot name the properties of key path") == true)
    }

    @Test func treesBuiltInCodeKeepTheLimits() throws {
        // A filter assembled in a loop stays flat, and so within the nesting limit...
        var predicate = ModelPredicate<Budget>.always
        for index in 0..<5_000 { predicate = predicate || ModelPredicate { $0.limit == Double(index) } }
        let schema = ExampleSchemas.combined
        let mapping = StoreMapping.make(for: schema, layout: .coreData)
        #expect(ModelQuery(where: predicate).compile(schema: schema, mapping: mapping).compiled != nil)
        // ...but the list limit applies to it as to text.
        for index in 5_000..<10_050 { predicate = predicate || ModelPredicate { $0.limit == Double(index) } }
        let tooLong = ModelQuery(where: predicate).compile(schema: schema, mapping: mapping)
        #expect(tooLong.diagnostics.map(\.code) == [.listTooLong])
        // Nesting built deliberately deep is stopped by the checker, not a stack overflow.
        var deep = QueryCondition.always
        for _ in 0..<1_000 { deep = !deep }
        let nested = ModelQuery<Budget>(where: ModelPredicate(deep)).compile(schema: schema, mapping: mapping)
        #expect(nested.diagnostics.map(\.code) == [.nestingTooDeep])
        // And a #Predicate is as deep as its source, which the Swift compiler bounds.
        let bridged = try ModelQuery(#Predicate<Budget> { !(!(!(!($0.limit > 1)))) }).compile(schema: schema, mapping: mapping)
        #expect(bridged.compiled != nil)
    }
}
