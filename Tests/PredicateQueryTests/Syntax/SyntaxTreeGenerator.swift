// Random syntax trees for the round-trip property test.
//
// Trees are generated in the parser's normal form (the forms the parser itself
// produces: minus signs folded into number literals, `&&`/`||` with at least two
// operands, closure variables referenced only where they are in scope and not
// shadowed), over names chosen to provoke the printer: reserved words, `count`,
// capitalised names, contextual keywords such as `limit` and `sort`.

import PredicateQueryTestSupport

@testable import PredicateQuery

struct SyntaxTreeGenerator {
    var random: SplitMix64
    /// Closure variables in scope, innermost last.
    private var scopes: [String] = []
    let maxDepth: Int

    init(seed: UInt64, maxDepth: Int = 6) {
        random = SplitMix64(seed: seed)
        self.maxDepth = maxDepth
    }

    private static let names = [
        "name", "limit", "amount", "tags", "budget", "count", "isEmpty", "sort", "by", "offset", "asc", "desc",
        "in", "and", "AND", "any", "self", "SELF", "nil", "true", "where", "contains", "date", "now", "Budget",
        "x", "é", "größe", "_hidden", "c", "cd", "filter", "allSatisfy", "subquery",
    ]
    private static let variableNames = ["t", "x", "in", "where", "name", "tag", "Item", "self"]
    private static let strings = [
        "", "Vac", "it's", "back\\slash", "line\nbreak", "tab\t", "nul\u{0}", "é", "e\u{301}", "😀", "[c]", "*?%_", "\"q\"",
    ]

    private mutating func int(_ range: ClosedRange<Int>) -> Int { random.int(range) }
    private mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
    private mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

    mutating func query() -> Query {
        var query = Query()
        if chance(30) { query.entity = Name(pick(["Budget", "Movie", "Item", "Ünicode", "users", "in", "Limit"])) }
        if chance(90) { query.predicate = expr(depth: 0) }
        if chance(30) {
            query.sortKeys = (0..<int(1...3)).map { _ in
                SortKey(path(root: .object), ascending: chance(50), options: chance(20) ? [.caseInsensitive] : [])
            }
        }
        if chance(20) { query.limit = count() }
        if chance(20) { query.offset = count() }
        return query
    }

    private mutating func count() -> QueryCount {
        chance(70) ? QueryCount(.literal(Int64(int(0...1_000)))) : QueryCount(.parameter(pick(["n", "limit", "page"])))
    }

    private mutating func path(root: PropertyPath.Root) -> PropertyPath {
        let minimum = root == .object ? 1 : 0
        let components = (0..<int(minimum...3)).map { _ in
            PathComponent(pick(Self.names), optionalChained: chance(20))
        }
        var path = PropertyPath(root: root, components)
        if root == .object, let first = path.components.first, first.isOptionalChained {
            path.components[0].isOptionalChained = false
        }
        return path
    }

    /// A variable in scope that no inner scope shadows.
    private mutating func visibleVariable() -> String? {
        var visible: [String] = []
        for name in scopes.reversed() where !visible.contains(name) { visible.append(name) }
        return visible.isEmpty ? nil : pick(visible)
    }

    mutating func expr(depth: Int) -> Expr {
        if depth >= maxDepth || chance(25) { return leaf() }
        let next = depth + 1
        switch int(0...17) {
        case 0: return Expr(.and((0..<int(2...3)).map { _ in expr(depth: next) }))
        case 1: return Expr(.or((0..<int(2...3)).map { _ in expr(depth: next) }))
        case 2: return Expr(.not(expr(depth: next)))
        case 3:
            var operand = expr(depth: next)
            if case .literal(let literal) = operand.kind, Self.isFoldable(literal) { operand = leafPath() }
            return Expr(.negate(operand))
        case 4:
            if chance(20) { return Expr(.coalesce(expr(depth: next), expr(depth: next))) }
            return Expr(.arithmetic(pick(ArithmeticOperator.allCases), expr(depth: next), expr(depth: next)))
        case 5: return Expr(.comparison(pick(ComparisonOperator.allCases), expr(depth: next), expr(depth: next), options()))
        case 6: return Expr(.stringTest(pick(StringOperator.allCases), expr(depth: next), expr(depth: next), options()))
        case 7: return Expr(.membership(expr(depth: next), expr(depth: next)))
        case 8: return Expr(.quantified(pick(Quantifier.allCases), expr(depth: next)))
        case 9: return Expr(.range(expr(depth: next), expr(depth: next), chance(50) ? .closed : .halfOpen))
        case 10: return Expr(.list((0..<int(0...3)).map { _ in expr(depth: next) }))
        case 11: return Expr(.elementTest(chance(50) ? .any : .all, collection(depth: next), closure(depth: next)))
        case 12: return Expr(.filter(collection(depth: next), closure(depth: next)))
        case 13:
            let function = pick(AggregateFunction.allCases)
            let field = function == .count ? [] : (0..<int(1...2)).map { _ in PathComponent(pick(Self.names)) }
            return Expr(.aggregate(function, collection(depth: next), field))
        case 14: return Expr(.isEmpty(collection(depth: next)))
        case 15:
            var base = expr(depth: next)
            if case .keyPath = base.kind { base = Expr(.list([base])) }
            return Expr(.member(base, PathComponent(pick(Self.names), optionalChained: chance(30))))
        case 16: return Expr(.call(.date, [Expr(.literal(.string(pick(["2024-05-01", "x'y"]))))]))
        default: return Expr(.call(pick([.now, .today]), []))
        }
    }

    private mutating func collection(depth: Int) -> Expr {
        chance(70) ? leafPath() : expr(depth: depth)
    }

    private mutating func closure(depth: Int) -> Closure {
        let variable = chance(40) ? "0" : pick(Self.variableNames)
        scopes.append(variable)
        defer { scopes.removeLast() }
        return Closure(variable: variable, body: expr(depth: depth))
    }

    private mutating func options() -> StringOptions {
        pick([[], [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]])
    }

    private mutating func leafPath() -> Expr {
        if let variable = visibleVariable(), chance(50) {
            return Expr(.keyPath(path(root: .variable(variable))))
        }
        return Expr(.keyPath(path(root: .object)))
    }

    private static func isFoldable(_ literal: Literal) -> Bool {
        switch literal {
        case .integer(let value): value != .min
        case .decimal, .duration: true
        default: false
        }
    }

    private mutating func leaf() -> Expr {
        switch int(0...11) {
        case 0: return Expr(.literal(.integer(pick([0, 1, -1, 42, .max, .min, 1_000_000]))))
        case 1: return Expr(.literal(.decimal(pick([0.5, -2.25, 1e20, 1e-7, 3.0, -0.0, .greatestFiniteMagnitude]))))
        case 2: return Expr(.literal(.string(pick(Self.strings))))
        case 3: return Expr(.literal(.bool(chance(50))))
        case 4: return Expr(.literal(.null))
        case 5: return Expr(.literal(.duration(pick([7, 1.5, -3, 0.25, 1e20]), pick(DurationUnit.allCases))))
        case 6: return Expr(.enumCase(pick(Self.names)))
        case 7: return Expr(.parameter(pick(["min", "name", "in", "x1", "Limit"])))
        case 8: return Expr(.keyPath(PropertyPath(root: .object, [])))
        default: return leafPath()
        }
    }
}
