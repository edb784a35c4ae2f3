// The walks over a checked tree (`anyChild`, `allChildren`, `forEachChild` and
// `children`, all one case analysis in TypedExpr.swift) must visit every direct
// subexpression, in order, for every kind of node: the lowering decides element
// passes and counts bound values with them, so a node they skipped would go unseen.
// What the children are is told independently, by Swift's reflection of each node.

import PredicateQueryExamples
import Testing

@testable import PredicateQuery

struct TypedExprTraversalTests {
    /// Queries whose checked trees hold every kind of `TypedExpr` node between them.
    static let queries = [
        "Budget where limit > 100 && name contains[c] 'Vac' || !(limit < 5)",
        "Budget where -limit * 2 + 1 > $min && (name ?? 'x') != nil",
        "Budget where limit in [100, 400, 1200] && limit between 1 and $max && name in $names",
        "Budget where transactions.@sum.amount > 500 && transactions.@count * 1.5 > limit",
        "Budget where transactions.filter { $0.amount > 5 }.count > 1 && any transactions.hasReceipt == true",
        "Budget where transactions.contains(where: { $0.amount > limit && $0.date < now() })",
        "Transaction where budget == $budget && budget.limit > 2.5 && date > date('2024-03-01')",
        "User where all pets.age > 2 && pets.@avg.age < 9.5",
    ]

    static func checkedTree(_ text: String) throws -> TypedExpr {
        let result = QueryCompiler.compile(
            text, schema: ExampleSchemas.combined, mapping: StoreMapping.make(for: ExampleSchemas.combined, layout: .plain))
        let checked = try #require(result.checked, "\(result.diagnostics.map(\.message))")
        return try #require(checked.predicate)
    }

    /// The case name of a node, as Swift prints it (`compare(…)` → `compare`).
    static func kind(_ node: TypedExpr) -> String {
        String("\(node)".prefix { $0 != "(" })
    }

    /// The `TypedExpr`s in a node's payload, in order, as reflection finds them
    /// (through tuples, arrays and optionals, not into the subexpressions found).
    static func reflectedChildren(_ node: TypedExpr) -> [TypedExpr] {
        var found: [TypedExpr] = []
        func dig(_ value: Any) {
            if let expr = value as? TypedExpr { return found.append(expr) }
            for child in Mirror(reflecting: value).children { dig(child.value) }
        }
        for child in Mirror(reflecting: node).children { dig(child.value) }
        return found
    }

    @Test func theQueriesHoldEveryKindOfNode() throws {
        var kinds: Set<String> = []
        for text in Self.queries {
            var pending = [try Self.checkedTree(text)]
            while let node = pending.popLast() {
                kinds.insert(Self.kind(node))
                pending += Self.reflectedChildren(node)
            }
        }
        let every = [
            "constant", "parameter", "currentDate", "attribute", "object", "isNil", "not", "negate", "toDouble",
            "inParameterList", "quantified", "and", "or", "compare", "stringTest", "arithmetic", "coalesce", "inList",
            "inRange", "aggregate",
        ]
        #expect(Set(every).subtracting(kinds).isEmpty, "no query holds \(Set(every).subtracting(kinds).sorted())")
    }

    @Test(arguments: queries)
    func theWalksVisitExactlyTheChildrenInOrder(_ text: String) throws {
        var nodes = 0
        var pending = [try Self.checkedTree(text)]
        while let node = pending.popLast() {
            nodes += 1
            let children = Self.reflectedChildren(node)
            var visited: [TypedExpr] = []
            node.forEachChild { visited.append($0) }
            #expect(visited.map { "\($0)" } == children.map { "\($0)" }, "\(node)")
            #expect(node.children.map { "\($0)" } == children.map { "\($0)" }, "\(node)")

            var asked: [TypedExpr] = []
            #expect(!node.anyChild { asked.append($0); return false })
            #expect(asked.count == children.count)
            #expect(node.allChildren { _ in true })
            if let last = children.indices.last {
                var seen = 0
                #expect(node.anyChild { _ in seen += 1; return seen == last + 1 })
                #expect(!node.allChildren { _ in seen += 1; return false })
            } else {
                #expect(!node.anyChild { _ in true })
            }
            pending += children
        }
        #expect(nodes > 5)
    }
}
