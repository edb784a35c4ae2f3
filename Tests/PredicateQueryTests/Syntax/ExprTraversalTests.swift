// `forEachChild` visits what `children` lists, in the same order, for every kind of
// expression (the limit walk uses the one, other walks the other).

import Testing

@testable import PredicateQuery

struct ExprTraversalTests {
    /// Between them, every kind of expression the parser makes.
    static let queries = [
        "limit > 100 && name contains 'Vac' || !(pages < 3)",
        "Budget where transactions.contains(where: { $0.amount > 50 && $0.hasReceipt })",
        "Budget where all transactions.amount > 3 && transactions.filter { $0.hasReceipt }.count > 1",
        "Budget where transactions.@sum.amount > 500 && transactions.isEmpty",
        "x in [1, 2, 3] && y between 1 and 2 && z in 1...4 && -w * 2 + 1 > $min",
        "folder?.name ?? 'none' == 'x' && genre == .action && date > date('2024-03-01')",
        "name.count > 3 && now() > start",
    ]

    @Test(arguments: queries)
    func forEachChildVisitsTheChildren(_ text: String) throws {
        let predicate = try #require(Parser.parse(text).query?.predicate, "\(text) does not parse")
        var stack = [predicate]
        var visited = 0
        while let expr = stack.popLast() {
            var each: [Expr] = []
            expr.forEachChild { each.append($0) }
            #expect(each.map(\.span) == expr.children.map(\.span), "\(expr.kind)")
            #expect(each.map { "\($0.kind)" } == expr.children.map { "\($0.kind)" })
            stack.append(contentsOf: expr.children)
            visited += 1
        }
        #expect(visited > 3)
    }
}
