// Trees built in code skip the parser, so the checker enforces every limit on them:
// depth, list and chain length, name length, in the filter and in sort keys.

import Testing

@testable import PredicateQuery

struct LimitCheckTests {
    let schema = Schema(entities: [
        Entity("Item", attributes: [Attribute("name", .string), Attribute("flag", .bool), Attribute("size", .integer(bits: 64))])
    ])

    private func codes(_ query: Query, limits: Limits = .standard) -> [DiagnosticCode] {
        TypeChecker.check(query, schema: schema, limits: limits).diagnostics.map(\.code)
    }

    private func name(_ length: Int) -> String { String(repeating: "n", count: length) }

    @Test func longListsAndChainsAreRejected() {
        let limits = Limits(maxListLength: 100)
        let size = Expr(.keyPath(PropertyPath("size")))
        let list = Expr(.list((0..<101).map { Expr(.literal(.integer(Int64($0)))) }))
        #expect(codes(Query(predicate: Expr(.membership(size, list))), limits: limits) == [.listTooLong])
        let flags = (0..<101).map { _ in Expr(.keyPath(PropertyPath("flag"))) }
        #expect(codes(Query(predicate: Expr(.and(flags))), limits: limits) == [.listTooLong])
        #expect(codes(Query(predicate: Expr(.or(flags))), limits: limits) == [.listTooLong])
        // At the limit, the query checks.
        #expect(codes(Query(predicate: Expr(.or(Array(flags.prefix(100))))), limits: limits).isEmpty)
    }

    @Test func longNamesAreRejectedWhereverTheyAppear() {
        let long = name(257)
        #expect(codes(Query(entity: Name(long))) == [.identifierTooLong])
        #expect(codes(Query(predicate: Expr(.keyPath(PropertyPath(long))))) == [.identifierTooLong])
        #expect(codes(Query(sortKeys: [SortKey(PropertyPath(long))])) == [.identifierTooLong])
        let compared = Expr(.comparison(.equal, Expr(.keyPath(PropertyPath("name"))), Expr(.parameter(long)), []))
        #expect(codes(Query(predicate: compared)) == [.identifierTooLong])
        // A name of exactly the limit is only unknown.
        #expect(codes(Query(predicate: Expr(.keyPath(PropertyPath(name(256)))))) == [.unknownProperty])
    }

    @Test func longKeyPathsAreRejected() {
        let path = PropertyPath(root: .object, (0..<129).map { _ in PathComponent("name") })
        #expect(codes(Query(predicate: Expr(.keyPath(path)))) == [.nestingTooDeep])
        #expect(codes(Query(sortKeys: [SortKey(path)])) == [.nestingTooDeep])
    }
}
