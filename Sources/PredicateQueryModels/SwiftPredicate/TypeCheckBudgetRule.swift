// A `#Predicate` whose one `&&` (or `||`) chain compares three or more values with
// literals by `==`, one of them optional: Swift gives up type-checking it ("the
// compiler is unable to type-check this expression in reasonable time"), so the
// app does not build.
//
// What the compiler does: each `==` with a literal can be any of the many `==`
// overloads (with the literal's type open, and Optional's own), and in one chain
// the combinations multiply past the solver's budget once an optional is among
// them. Reported as swiftlang/swift#69277 (three `Int?` properties compared with
// 1, 2 and 3); Swift's own test suite keeps it as a known slow case that fails
// with the default limit (validation-test/Sema/type_checker_perf/slow/
// issue-69277.swift). Measured with Swift 6.3 (Foundation's macro, Linux): three
// `Int?` or `String?` equalities with literals fail, as do one optional and two
// non-optional ones, or two and a comparison with nil; three with `!=`, three
// non-optional ones, two with literals and one with a captured constant, and the
// same values captured in constants all compile. `TypeCheckBudgetRuleTests`
// compiles both shapes with the toolchain at hand, so a compiler that stops
// failing turns a test red.
//
// Only a flat chain is counted: parentheses that split the chain change how the
// solver works through it (some such splits compile, some do not), and a false
// error costs more than a missed one.

import PredicateQuery

extension DiagnosticCode {
    /// A `#Predicate` chain the Swift compiler cannot type-check in its time budget.
    public static let swiftTypeCheckBudget: DiagnosticCode = "swift.typeCheckBudget"
}

enum TypeCheckBudgetRule {
    /// The most `==` comparisons with literals, one of them optional, that one chain can hold.
    static let limit = 2

    /// An error at each chain of `predicate` (over `root`) the compiler cannot type-check; only
    /// comparisons written inside `site` count (a captured predicate read into this one is
    /// type-checked where it is written).
    static func check(_ predicate: Expr, schema: Schema, root: Entity, site: SourceSpan) -> [Diagnostic] {
        var found: [Diagnostic] = []
        MemberResolver(schema: schema, root: root).forEachNode(of: predicate) { node, resolver in
            let operands: [Expr]
            let symbol: String
            switch node.kind {
            case .and(let parts): (operands, symbol) = (parts, "&&")
            case .or(let parts): (operands, symbol) = (parts, "||")
            default: return
            }
            var equalities: [(span: SourceSpan, isOptional: Bool)] = []
            for operand in operands {
                guard case .comparison(.equal, let lhs, let rhs, _) = operand.kind,
                    operand.span.start >= site.start, operand.span.end <= site.end
                else { continue }
                for (side, other) in [(lhs, rhs), (rhs, lhs)] {
                    guard case .literal = other.kind, case .keyPath(let path) = side.kind,
                        let optional = resolver.attributeOptionality(of: path)
                    else { continue }
                    equalities.append((operand.span, optional))
                    break
                }
            }
            guard equalities.count > limit, equalities.contains(where: \.isOptional),
                let first = equalities.first, let last = equalities.last
            else { return }
            found.append(
                .error(
                    .swiftTypeCheckBudget,
                    "the compiler is unable to type-check this #Predicate in reasonable time: \(equalities.count) comparisons with literals in one '\(symbol)' chain, one of an optional value",
                    at: first.span.merged(with: last.span),
                    notes: [
                        DiagnosticNote(
                            "compare with constants captured outside the closure (let minimum = 1) instead of literals; the values stay the same"
                        ),
                        DiagnosticNote(
                            "evidence: swiftlang/swift#69277, kept in Swift's test suite as a known slow case; fails with Swift 6.3"),
                    ]))
        }
        return found
    }
}
