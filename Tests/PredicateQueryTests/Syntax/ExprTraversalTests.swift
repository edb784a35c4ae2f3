// A walk over `forEachChild` (which `children` lists too) reaches every part of a
// query: each number and quoted string written in the text is the text of a node it
// visits, and each node's children lie inside it, in source order. Written against
// the query text rather than against the switch it tests.

import Foundation
import Testing

@testable import PredicateQuery

struct ExprTraversalTests {
    /// Between them, every kind of expression the parser makes, each with a literal
    /// under it where it can hold one.
    static let queries = [
        "limit > 100 && name contains 'Vac' || !(pages < 3)",
        "Budget where transactions.contains(where: { $0.amount > 50 && $0.hasReceipt })",
        "Budget where all transactions.amount > 4 && transactions.filter { $0.amount > 7 }.count > 1",
        "Budget where transactions.@sum.amount > 500 && transactions.isEmpty",
        "x in [11, 12, 13] && y between 21 and 22 && z in 31...34 && -w * 2 + 1 > $min",
        "folder?.name ?? 'none' == 'x' && genre == .action && date > date('2024-03-01')",
        "name.count > 9 && now() > start",
    ]

    /// The numbers and quoted strings written in `text`, as written.
    private func literals(in text: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: "'[^']*'|(?<![$\\w.])\\d+(?![\\w.]\\d)")
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
    }

    @Test(arguments: queries)
    func theWalkReachesEveryPartOfTheQuery(_ text: String) throws {
        let predicate = try #require(Parser.parse(text).query?.predicate, "\(text) does not parse")
        let bytes = Array(text.utf8)
        func source(_ span: SourceSpan) -> String { String(decoding: bytes[span.start..<span.end], as: UTF8.self) }
        var reached: Set<String> = []
        var stack = [predicate]
        while let expr = stack.popLast() {
            reached.insert(source(expr.span))
            var previousEnd = expr.span.start
            expr.forEachChild { child in
                #expect(child.span.start >= previousEnd && child.span.end <= expr.span.end, "\(source(child.span)) in \(source(expr.span))")
                previousEnd = child.span.end
                stack.append(child)
            }
        }
        let written = try literals(in: text)
        #expect(!written.isEmpty)
        for literal in written {
            #expect(reached.contains(literal), "\(literal) of \(text) is not reached")
        }
    }
}
