// Lowering stays linear in the literals, held without timing anything.
//
// Each literal is appended to `SQLLowering.bindings`. When a copy of the lowering is
// alive during an append (a mutating call as the argument of a method of `self`),
// the append copies every binding so far, and lowering becomes quadratic: 56 µs a
// node at 100k nodes, against 2 µs at 1k (issue 27). `bindingCopies` counts the
// appends that moved the array other than to grow it; it must stay zero, whatever
// the number of literals, on every path a literal takes.

import Testing

@testable import PredicateQuery

struct BindingStorageTests {
    static let schema = Schema(entities: [
        Entity(
            "Item",
            attributes: [
                Attribute("name", .string), Attribute("size", .integer(bits: 64)), Attribute("score", .double, optional: true),
            ])
    ])

    /// The checked query of `text`, and what lowering it for `database` did to its bindings.
    static func lowering(_ text: String, _ database: SQLDatabase = .sqlite) throws -> (bindings: Int, copies: Int) {
        var mapping = StoreMapping.make(for: schema, layout: .plain)
        mapping.database = database
        let limits = Limits(maxListLength: 100_000)
        let checked = try #require(QueryCompiler.compile(text, schema: schema, mapping: mapping, limits: limits).checked)
        let (compiled, lowering) = try SQLLowering.lowerKeepingState(
            checked, mapping: mapping, dialect: mapping.database.dialect, count: false)
        return (compiled.bindings.count, lowering.bindingCopies)
    }

    static func chain(_ n: Int, _ term: (Int) -> String) -> String {
        "Item where " + (0..<n).map(term).joined(separator: " || ")
    }

    static func term(_ shape: String, _ i: Int) -> String {
        switch shape {
        case "equalities": "name == 'v\(i)'"
        case "comparisons": "size > \(i)"
        case "optional doubles": "score == \(i).5"
        case "prefix tests": "name beginswith 'p\(i)'"
        default: "name == $p\(i % 50)"
        }
    }

    @Test(arguments: ["equalities", "comparisons", "optional doubles", "prefix tests", "parameters"])
    func literalsAreAppendedWithoutCopyingTheBindingsSoFar(shape: String) throws {
        let (bindings, copies) = try Self.lowering(Self.chain(5_000) { Self.term(shape, $0) })
        #expect(bindings >= 5_000 || shape == "parameters", "\(shape)")
        #expect(copies == 0, "\(shape): \(copies) of \(bindings) appends copied the bindings so far")
    }

    @Test func listMembersAreAppendedWithoutCopying() throws {
        let list = (0..<5_000).map { "'m\($0)'" }.joined(separator: ", ")
        let (bindings, copies) = try Self.lowering("Item where name in {\(list)}")
        #expect(bindings == 5_000)
        #expect(copies == 0)
    }

    @Test func postgreSQLFoldedEqualitiesAreAppendedWithoutCopying() throws {
        let (bindings, copies) = try Self.lowering(Self.chain(2_000) { "name ==[c] 'v\($0)'" }, .postgreSQL)
        #expect(bindings >= 2_000)
        #expect(copies == 0)
    }
}
